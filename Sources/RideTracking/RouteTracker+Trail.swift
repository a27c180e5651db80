import RouteModel

/// Telling a rider back on the course, or leaving it, from the way the fixes moved, where the
/// drift the filter follows cannot tell.
///
/// Off the course the tracker knows the drift only as it was when the rider left, faded since. A
/// detour of a minute or two is long enough for the drift to move 40 m, and then a rider back on
/// the course has fixes further from where that drift puts them than from a rider still away:
/// they were read off the course for minutes, and the search that finds them again could settle on
/// a pass hundreds of metres on. How the fixes move tells them apart: fixes that ride along the
/// course beside it, or that came in across it further than drift moves them and stopped, are a
/// rider on it, with the drift what now puts the fixes beside it.
///
/// On the course, the filter follows the drift fix by fix, and a rider walking off the way at 4 m/s
/// moves it only a little further each fix than drift moves: it follows them out to 3σ. The
/// fixes themselves, a few seconds apart, show them going across the way faster than drift goes.
extension RouteTracker {
    /// The fixes of the last `seconds` off the course, each by the nearest pass.
    struct Trail: Sendable {
        struct Fix: Sendable {
            var clock: Double
            var along: Double
            var side: Double
            var offset: Double
            var stage: Int32
            var piece: Int
        }

        /// How long back fixes are kept, in seconds, and the most kept (a fix a second).
        static let seconds = 20.0
        static let capacity = 24

        /// The least seconds between fixes kept.
        var spacing = 0.0
        private(set) var fixes: [Fix] = []

        /// Whether a fix at `clock` would be kept: the last kept is at least `spacing` seconds older.
        func wants(_ clock: Double) -> Bool {
            fixes.last.map { clock - $0.clock >= spacing } ?? true
        }

        /// Keeps `fix`, unless the last kept is under `spacing` seconds older.
        mutating func append(_ fix: Fix) {
            guard wants(fix.clock) else { return }
            while let first = fixes.first, fix.clock - first.clock > Self.seconds || fixes.count >= Self.capacity { fixes.removeFirst() }
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
    /// Arrived: fixes that came in across the way from the side the rider left to by at least
    /// `arrivalLeast` metres and this many spreads of the drift's change, and stayed within two
    /// spreads of it for `settledSeconds`.
    static let arrivalSpreads = 4.0
    static let arrivalLeast = 20.0
    static let settledSeconds = 2.0

    /// Leaving: fixes of 8-20 s ago (one each 3 s) against which the fix has moved across the way
    /// by more than `strayLimit` spreads of the drift's change (and the threshold's floor), and is
    /// still moving that way (more than one spread since a fix 5 s or more ago), itself over the
    /// floor from the way.
    static let movedAfter = 8.0
    static let stillMovingAfter = 5.0
    static let movedSpacing = 3.0

    /// How far the fix moved across the way from a fix kept in `moved` beyond what drift moves it
    /// (a rider leaving, or one found again too soon on the way back), and the threshold that is
    /// over; nil where it did not. Fixes kept from the same stage and about the same way only: at a
    /// turn, the side of one way is not the side of the other.
    ///
    /// For a fix over the floor from the way: the caller tells, as it is the one test most fixes need.
    func movedAcross(_ c: Context, nearest: RouteCourse.Match, moved: Trail) -> (stray: Double, threshold: Double)? {
        guard let recent = moved.fixes.last(where: { c.clock - $0.clock >= Self.stillMovingAfter }) else { return nil }
        let spread = c.changeSpread(over:)
        let stage = course.pieces[nearest.piece].stage
        let direction = course.pieces[nearest.piece].direction
        let recentChange = nearest.side - recent.side
        guard recent.stage == stage, abs(recentChange) >= spread(c.clock - recent.clock) else { return nil }
        // The drift's change only grows with time: under the least, no fix can be over.
        let least = limit(floor: c.floor, spread: spread(Self.movedAfter))
        var found: (stray: Double, threshold: Double)? = nil
        for then in moved.fixes where c.clock - then.clock >= Self.movedAfter && c.clock - then.clock <= Trail.seconds && then.stage == stage {
            let change = nearest.side - then.side
            guard abs(change) > least, change * recentChange > 0, course.pieces[then.piece].direction.dot(direction) > 0.9 else { continue }
            let bound = limit(floor: c.floor, spread: spread(c.clock - then.clock))
            if abs(change) > bound && abs(change) - bound > (found.map { abs($0.stray) - $0.threshold } ?? 0) { found = (change, bound) }
        }
        return found
    }

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
        state.trail.append(Trail.Fix(clock: c.clock, along: nearest.along, side: nearest.side, offset: nearest.offset, stage: stage, piece: nearest.piece))
        // Drift reaches 3.5σ at most, however long ago the rider left.
        guard nearest.offset <= max(threshold, options.strayLimit * c.sigma) else { return nil }
        let changeSpread = c.changeSpread(over:)
        let fixes = state.trail.fixes
        if let settled = fixes.last(where: { c.clock - $0.clock >= Self.settledSeconds }) {
            let still = fixes.allSatisfy { $0.clock < settled.clock || abs($0.offset - nearest.offset) <= 2 * changeSpread(c.clock - $0.clock) }
            // Came in from the side the rider left to, about here: across the way to the other side
            // too, where the drift has moved since (a fix on the way back taken for the course, and
            // the rider found again too soon, counts with the fixes on the course since).
            let side = state.leftSide
            func cameIn(_ fix: Trail.Fix) -> Bool {
                let least = max(Self.arrivalLeast, Self.arrivalSpreads * changeSpread(c.clock - fix.clock))
                guard side != 0 else { return fix.offset - nearest.offset >= least }
                return fix.stage == stage && abs(fix.along - nearest.along) <= 2 * c.sigma + 20 && (fix.side - nearest.side) * side >= least
            }
            let cameIn = fixes.contains(where: cameIn) || state.moved.fixes.contains { c.clock - $0.clock <= Trail.seconds && cameIn($0) }
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
