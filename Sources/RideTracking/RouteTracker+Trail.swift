#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import RouteModel

/// Telling a rider back on the course from the way the fixes moved, when the drift of before they
/// left no longer says where the fixes lie.
///
/// Off the course the tracker knows the drift only as it was when the rider left, faded since. A
/// detour of a minute or two is long enough for the drift to move 40 m, and then a rider back on
/// the course has fixes further from where that drift puts them than from a rider still away:
/// they were read off the course for minutes, and the search that finds them again could settle on
/// a pass hundreds of metres on. How the fixes move tells them apart: fixes that ride along the
/// course beside it, or that came in across it further than drift moves them and stopped, are a
/// rider on it, with the drift what now puts the fixes beside it.
extension RouteTracker {
    /// The fixes of the last `seconds` off the course, each by the nearest pass.
    struct Trail: Sendable {
        struct Fix: Sendable {
            var clock: Double
            var along: Double
            var side: Double
            var offset: Double
            var stage: Int32
        }

        /// How long back fixes are kept, in seconds, and the most kept (a fix a second).
        static let seconds = 20.0
        static let capacity = 24

        private(set) var fixes: [Fix] = []

        mutating func append(_ fix: Fix) {
            fixes.removeAll { fix.clock - $0.clock > Self.seconds }
            if fixes.count >= Self.capacity { fixes.removeFirst() }
            fixes.append(fix)
        }

        mutating func removeAll() {
            fixes.removeAll(keepingCapacity: true)
        }
    }

    /// Riding along: at least this many seconds of fixes moving on along the course, at least
    /// `ridingSpeed` m/s more than drift moves them.
    static let ridingSeconds = 3.0
    static let ridingSpeed = 2.0
    /// Arrived: fixes that came in across the way by at least `arrivalLeast` metres and this many
    /// spreads of the drift's change, and stayed within two spreads of it for `settledSeconds`.
    static let arrivalSpreads = 4.0
    static let arrivalLeast = 20.0
    static let settledSeconds = 2.0

    /// The nearest pass, when the fixes off the course show a rider back on it: they ride along it,
    /// or came in to it and stopped, beside it within what drift reaches. A rider standing on a
    /// detour, or on the way back to the course, is not.
    ///
    /// Keeps the fix in `state.trail`, so it is called once for every fix of the search.
    func passRiddenBeside(_ c: Context, threshold: Double, state: inout State) -> RouteCourse.Match? {
        guard state.placed, !state.resuming, c.seconds != nil,
            let nearest = passes.indices.min(by: { passes[$0].offset < passes[$1].offset }).map({ passes[$0] })
        else {
            state.trail.removeAll()
            return nil
        }
        let stage = course.pieces[nearest.piece].stage
        state.trail.append(Trail.Fix(clock: c.clock, along: nearest.along, side: nearest.side, offset: nearest.offset, stage: stage))
        // Drift reaches 3.5σ at most, however long ago the rider left.
        guard nearest.offset <= max(threshold, options.strayLimit * c.sigma) else { return nil }
        // The spread of the drift's change over `age` seconds, with the white noise of both fixes.
        func changeSpread(_ age: Double) -> Double {
            (2 * c.drift * (1 - exp(-age / c.correlationTime)) + 2 * c.white).squareRoot()
        }
        let fixes = state.trail.fixes
        if let settled = fixes.last(where: { c.clock - $0.clock >= Self.settledSeconds }) {
            let still = fixes.allSatisfy { $0.clock < settled.clock || abs($0.offset - nearest.offset) <= 2 * changeSpread(c.clock - $0.clock) }
            let cameIn = fixes.contains {
                $0.offset - nearest.offset >= max(Self.arrivalLeast, Self.arrivalSpreads * changeSpread(c.clock - $0.clock))
            }
            if still && cameIn { return nearest }
        }
        // From any fix far enough back, every fix since moved on along the way, none back or across.
        for then in fixes.reversed() where c.clock - then.clock >= Self.ridingSeconds && then.stage == stage {
            let age = c.clock - then.clock
            let ridden = nearest.along - then.along
            let change = 2 * changeSpread(age)
            guard ridden >= Self.ridingSpeed * age + change, ridden <= options.maximumSpeed * age, abs(nearest.side - then.side) <= change else {
                continue
            }
            let along = fixes.allSatisfy {
                $0.clock < then.clock || ($0.stage == stage && $0.along >= then.along - c.sigma && abs($0.side - then.side) <= change)
            }
            if along { return nearest }
        }
        return nil
    }
}
