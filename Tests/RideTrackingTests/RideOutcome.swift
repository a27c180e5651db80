import Foundation
import RouteModel
import RouteFormats
import RideTracking
import TestSupport

/// The courses rides are made on: the made ones and the real tracks.
enum RideCourseKind: Sendable, CustomStringConvertible {
    case made(MadeCourse)
    case real(String)

    static let realTracks = ["korita-zbevnica.gpx", "cerknicko-jezero.gpx", "Mojstrovka.gpx", "route.gpx"]
    /// The made courses, the real tracks, then the courses that turn back along themselves (last,
    /// so the rides before them keep their seeds).
    static let all: [RideCourseKind] =
        MadeCourse.allCases.filter { !MadeCourse.turnarounds.contains($0) }.map(RideCourseKind.made) + realTracks.map(RideCourseKind.real)
        + MadeCourse.turnarounds.map(RideCourseKind.made)

    var description: String {
        switch self {
        case .made(let course): course.rawValue
        case .real(let file): file
        }
    }

    /// The rider's usual speed: a bike on the made courses and the flat tracks, a walker up Mojstrovka.
    var pace: Double {
        switch self {
        case .made: 6
        case .real("Mojstrovka.gpx"): 1.2
        case .real: 5
        }
    }

    func course() throws -> RideCourse {
        switch self {
        case .made(let course): RideCourse(course)
        case .real(let file): RideCourse(name: file, route: try Route.load(path: Repository.sharedRoute(file), format: nil))
        }
    }
}

/// One ride: a course, the errors its fixes have, and the seed they are drawn with.
struct RideCase: Sendable, CustomStringConvertible {
    var course: RideCourseKind
    var errors: GPSErrors
    var seed: UInt64

    var description: String { "\(course), \(errors), seed \(seed)" }

    /// Every course ridden four ways: a fix each 1 s and each 5 s, with and without accuracy and
    /// speed; the drift's σ and correlation time varied so each course meets the worst (15 m, 90 s).
    static let all: [RideCase] = RideCourseKind.all.enumerated().flatMap { index, course in
        let noises: [(Double, Double)] = [(15, 90), (8, 30), (12, 60), (15, 30)]
        return [(1.0, GPSErrors.Receiver.bare), (5, .bare), (1, .phone), (5, .phone)].enumerated().map { way, setting in
            let (sigma, correlation) = noises[(way + index) % noises.count]
            return RideCase(
                course: course,
                errors: GPSErrors(sigma: sigma, correlationTime: correlation, interval: setting.0, receiver: setting.1),
                seed: UInt64(101 + 7 * index + way))
        }
    }

    func ride() throws -> GPSRide {
        try GPSRide(course: course.course(), errors: errors, pace: course.pace, detour: true, seed: seed)
    }
}

/// What the tracker made of a ride, measured against its truth.
struct RideOutcome {
    let ride: GPSRide
    let progress: [RouteProgress]

    /// The ride followed by a tracker; with `oracle`, one handed the truth as a further guess at
    /// `cost` nats whenever it reads the rider more than `beyond` metres off on the course (to
    /// measure what a perfect search would gain, never to pass a test).
    init(_ ride: GPSRide, options: RouteTracker.Options = RouteTracker.Options(), oracle: (beyond: Double, cost: Double)? = nil) throws {
        self.ride = ride
        var tracker = RouteTracker(course: try RouteCourse(route: ride.course.route), options: options)
        var progress: [RouteProgress] = []
        for (index, sample) in ride.samples.enumerated() {
            if let oracle, index > 0, let last = progress.last, case let previous = ride.samples[index - 1], sample.offset == 0, previous.offset == 0,
                abs(last.distance - previous.along) > oracle.beyond
            {
                let seconds = (sample.fix.time ?? 0) - (previous.fix.time ?? 0)
                tracker.offer(along: previous.along, speed: seconds > 0 ? (sample.along - previous.along) / seconds : 0, extraCost: oracle.cost)
            }
            progress.append(try tracker.update(sample.fix))
        }
        self.progress = progress
    }

    var samples: [GPSRide.Sample] { ride.samples }

    /// The fixes taken while the rider was truly on the course: all but the detour's and the 3 after it.
    var onCourse: [Int] {
        samples.indices.filter { index in
            guard samples[index].offset == 0 else { return false }
            guard let detour = ride.detour else { return true }
            return !(detour.off.lowerBound..<(detour.back + 3)).contains(index)
        }
    }

    /// |distance − truth| at each fix on the course.
    var errors: [Double] { onCourse.map { abs(progress[$0].distance - samples[$0].along) } }

    var worst: Double { errors.max() ?? 0 }

    /// The 99th percentile of the errors.
    var percentile99: Double {
        let sorted = errors.sorted()
        guard !sorted.isEmpty else { return 0 }
        return sorted[min(Int((Double(sorted.count) * 0.99).rounded(.up)) - 1, sorted.count - 1)]
    }

    /// Fixes on the course more than 100 m along it from the rider.
    var strays: Int { errors.count { $0 > 100 } }

    /// Fixes on the course flagged off it.
    var falseOff: [Int] { onCourse.filter { !progress[$0].onRoute } }

    /// Runs of off-route fixes that begin at a lone spike or the fix after it. A spike as the very
    /// first fix is not counted: one fix 80-200 m from the route cannot be told from a rider who is
    /// not on it yet, and "not on the route" is then the honest answer.
    var offBySpike: [Int] {
        samples.indices.dropFirst().filter { index in
            guard !progress[index].onRoute, progress[index - 1].onRoute else { return false }
            let spikes = (max(index - 1, 0)...index).filter { samples[$0].spike }
            guard let spike = spikes.first else { return false }
            // Lone: neither neighbour is a spike too.
            let neighbours = [spike - 1, spike + 1].filter { samples.indices.contains($0) }
            return neighbours.allSatisfy { !samples[$0].spike } && samples[index].offset == 0
        }
    }

    /// The fixes about the turn: from two minutes before the rider reached it to three minutes
    /// after they left it and the fixes came back.
    var aboutTheTurn: [Int] {
        guard let times = ride.turnTimes else { return [] }
        let window = (times.reached - 120)...(max(times.left, times.resumed) + 180)
        return onCourse.filter { samples[$0].fix.time.map(window.contains) ?? false }
    }

    /// The most a fix about the turn was placed from the rider, along the course.
    var worstAboutTheTurn: (metres: Double, index: Int?) {
        aboutTheTurn.reduce((0, nil)) { worst, index in
            let error = abs(progress[index].distance - samples[index].along)
            return error > worst.0 ? (error, index) : worst
        }
    }

    /// The fixes whose offset is not the metres from the fix to the route: less than to the route's
    /// nearest point or more than to the place reported as the rider's, by more than a metre.
    var offsetMisses: [(index: Int, offset: Double, nearest: Double, reported: Double)] {
        progress.indices.compactMap { index in
            let fix = samples[index].fix.coordinate
            let nearest = Geodesic.inverse(from: fix, to: ride.course.nearestPoint(to: fix)).distance
            let reported = Geodesic.inverse(from: fix, to: progress[index].snapped).distance
            let offset = progress[index].offset
            return offset < nearest - 1 || offset > reported + 1 ? (index, offset, nearest, reported) : nil
        }
    }

    /// The most the distance read while the rider stood at the start.
    var worstAtStart: Double {
        samples.indices.filter { samples[$0].beforeSetOff }.map { progress[$0].distance }.max() ?? 0
    }

    var finishes: [Int] { progress.indices.filter { progress[$0].event == .finish } }
    var starts: [Int] { progress.indices.filter { progress[$0].event == .start } }

    /// Fixes from the detour's first at 60 m until it was flagged, and from the first back on the
    /// course until that was; nil where it never was.
    var detourDelays: (flagged: Int?, rejoined: Int?, flappedWhileAway: Bool)? {
        guard let detour = ride.detour else { return nil }
        let flagged = (detour.away..<samples.count).first { !progress[$0].onRoute }.map { $0 - detour.away }
        let rejoined = (detour.back..<samples.count).first { progress[$0].onRoute }.map { $0 - detour.back }
        let firstOff = detour.away + (flagged ?? 0)
        let flapped = firstOff < detour.returning && (firstOff..<detour.returning).contains { progress[$0].onRoute }
        return (flagged, rejoined, flapped)
    }

    /// The 99th percentile of how far the drift moved the fixes on the course.
    var drift99: Double {
        let sorted = onCourse.map { samples[$0].drift }.sorted()
        guard !sorted.isEmpty else { return 0 }
        return sorted[min(Int((Double(sorted.count) * 0.99).rounded(.up)) - 1, sorted.count - 1)]
    }

    /// Whether the ride meets all four points of "Riding on real GPS": the start, no leg jumps,
    /// p99 within 3σ + 10 m, off route meaning off (a detour seen within 3 fixes, never a lone spike).
    var meetsAll: Bool {
        let delays = detourDelays
        return strays == 0 && percentile99 <= 3 * ride.errors.sigma + 10 && worstAtStart <= 3 * ride.errors.sigma + 10
            && (delays.map { ($0.flagged ?? 99) <= 3 && ($0.rejoined ?? 99) <= 3 } ?? true) && starts.count == 1 && finishes.count == 1
            && offBySpike.isEmpty
    }

    var summary: String {
        let delays = detourDelays
        func f(_ value: Double, _ decimals: Int = 0) -> String { String(format: "%.\(decimals)f", value) }
        let falseShare = 100 * Double(falseOff.count) / Double(max(onCourse.count, 1))
        let finish = finishes.first.map { f(samples[$0].along) } ?? "-"
        return "\(ride.errors): \(samples.count) fixes, worst \(f(worst)) m, p99 \(f(percentile99, 1)) m (bound \(f(3 * ride.errors.sigma + 10)), drift p99 \(f(drift99))), "
            + ">100 m \(strays), false off \(falseOff.count) (\(f(falseShare, 2))%), by spike \(offBySpike.count), start ≤ \(f(worstAtStart)) m, "
            + "starts \(starts.count) finishes \(finishes.count) (at \(finish) of \(f(ride.course.length))), "
            + "detour flagged +\(delays?.flagged.map(String.init) ?? "never") back +\(delays?.rejoined.map(String.init) ?? "never")"
            + (delays?.flappedWhileAway == true ? " (flapped)" : "")
    }
}
