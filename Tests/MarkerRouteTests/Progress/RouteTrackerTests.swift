import Foundation
import MarkerRoute
import TestSupport
import Testing

@Suite("Following a rider along a course")
struct RouteTrackerTests {
    struct Outcome {
        var ride: NoisyRide
        var progress: [RouteProgress]
        var thresholds: [Double]
        var length: Double
    }

    static func follow(_ course: MadeCourse, _ receiver: NoisyRide.Receiver, seed: UInt64 = 7) throws -> Outcome {
        let ride = NoisyRide(course: course, receiver: receiver, seed: seed)
        let made = try RouteCourse(route: Route(stages: [Stage(coordinates: course.coordinates)]))
        var tracker = RouteTracker(course: made)
        var progress: [RouteProgress] = []
        for sample in ride.samples { progress.append(try tracker.update(sample.fix)) }
        return Outcome(ride: ride, progress: progress, thresholds: ride.samples.map { tracker.threshold(for: $0.fix) }, length: made.length)
    }

    /// Every course with every receiver, each ridden with three seeds of noise.
    static let seeds: [UInt64] = [7, 11, 23]
    static let cases: [(MadeCourse, NoisyRide.Receiver, UInt64)] = MadeCourse.allCases.flatMap { course in
        NoisyRide.Receiver.allCases.flatMap { receiver in seeds.map { (course, receiver, $0) } }
    }

    @Test("progress never jumps to another leg, and is within 15 m of the truth for 99% of fixes on the course", arguments: cases)
    func distanceFollowsTheRider(course: MadeCourse, receiver: NoisyRide.Receiver, seed: UInt64) throws {
        let outcome = try Self.follow(course, receiver, seed: seed)
        let samples = outcome.ride.samples
        // Fixes on the course, leaving out the detour and the 3 fixes it takes to notice the rider is back.
        let detour = outcome.ride.detour
        let onCourse = samples.indices.filter { $0 < detour.lowerBound || $0 >= detour.upperBound + 3 }
        let errors = onCourse.map { abs(outcome.progress[$0].distance - samples[$0].along) }
        let worst = errors.max() ?? 0
        #expect(worst < 100, "\(course), \(receiver), seed \(seed): progress strayed \(Int(worst)) m from the rider (another leg?)")
        let within = errors.filter { $0 <= 15 }.count
        let share = Double(within) / Double(errors.count)
        // Speed from the receiver holds the estimate to the rider through noise; from positions alone the
        // filter trails by more than 15 m for a fix or two as the rider sets off, stops, or is found again.
        let required = receiver == .phone ? 0.99 : 0.98
        #expect(share >= required, "\(course), \(receiver), seed \(seed): \(within) of \(errors.count) fixes within 15 m (\(share))")
        for index in onCourse {
            let progress = outcome.progress[index]
            #expect(abs(progress.distance + progress.remaining - outcome.length) < 1e-6)
        }
    }

    @Test("leaving the course is flagged within 3 fixes, rejoining within 3, and nothing flaps", arguments: cases)
    func offCourseHasHysteresis(course: MadeCourse, receiver: NoisyRide.Receiver, seed: UInt64) throws {
        let outcome = try Self.follow(course, receiver, seed: seed)
        let samples = outcome.ride.samples
        let detour = outcome.ride.detour
        let thresholds = outcome.thresholds
        // Leaving is the first fix truly beyond the threshold; coming back, the first within two thirds of it.
        let leaving = try #require(detour.first { samples[$0].offset > thresholds[$0] })
        let peak = try #require(detour.max { samples[$0].offset < samples[$1].offset })
        let back = try #require((peak..<samples.count).first { samples[$0].offset < thresholds[$0] * 2 / 3 })
        let flagged = try #require((leaving..<samples.count).first { !outcome.progress[$0].onRoute })
        #expect(flagged - leaving <= 2, "\(course), \(receiver), seed \(seed): off the course at fix \(leaving), flagged at \(flagged)")
        let rejoined = try #require((back..<samples.count).first { outcome.progress[$0].onRoute })
        #expect(rejoined - back <= 2, "\(course), \(receiver), seed \(seed): back at fix \(back), flagged on at \(rejoined)")
        let offFixes = outcome.progress.indices.filter { !outcome.progress[$0].onRoute }
        #expect(offFixes.allSatisfy { (leaving...rejoined).contains($0) }, "\(course), \(receiver), seed \(seed): off at \(offFixes)")
        let changes = zip(outcome.progress, outcome.progress.dropFirst()).count { $0.onRoute != $1.onRoute }
        #expect(changes == 2, "\(course), \(receiver), seed \(seed): on/off changed \(changes) times")
    }

    @Test("the start is found as the rider sets off, the finish once at the end", arguments: cases)
    func startAndFinish(course: MadeCourse, receiver: NoisyRide.Receiver, seed: UInt64) throws {
        let outcome = try Self.follow(course, receiver, seed: seed)
        let starts = outcome.progress.indices.filter { outcome.progress[$0].event == .start }
        let finishes = outcome.progress.indices.filter { outcome.progress[$0].event == .finish }
        #expect(starts.count == 1 && finishes.count == 1, "\(course), \(receiver), seed \(seed): starts \(starts), finishes \(finishes)")
        if let start = starts.first { #expect(outcome.ride.samples[start].along < 100) }
        if let finish = finishes.first { #expect(outcome.length - outcome.ride.samples[finish].along < 60) }
    }
}

@Suite("Real tracks followed against themselves, and fixes that cannot be followed")
struct RealTrackProgressTests {
    @Test(
        "every recorded point is on the course, at its own distance along it, and the finish is found",
        arguments: ["korita-zbevnica.gpx", "cerknicko-jezero.gpx", "Mojstrovka.gpx", "route.gpx", "track-with-empty-segment.gpx"])
    func pointsFollowThemselves(file: String) throws {
        let route = try Route.load(path: Repository.sharedRoutes.appendingPathComponent(file).path, format: nil)
        let course = try RouteCourse(route: route)
        var tracker = RouteTracker(course: course)
        var errors: [Double] = []
        var finishes = 0
        var before = 0.0
        for stage in route.stages {
            let measured = MeasuredStage(stage)
            for (coordinate, along) in zip(stage.coordinates, measured.cumulativeDistances) {
                let progress = try tracker.update(Fix(coordinate: coordinate))
                #expect(progress.onRoute, "\(file): a point of the track is off it")
                errors.append(abs(progress.distance - (before + along)))
                if progress.event == .finish { finishes += 1 }
            }
            before += measured.length
        }
        let within = errors.filter { $0 <= 15 }.count
        #expect(Double(within) >= 0.99 * Double(errors.count), "\(file): \(within) of \(errors.count) within 15 m")
        #expect((errors.max() ?? 0) < 100, "\(file): strayed \(Int(errors.max() ?? 0)) m")
        #expect(finishes == 1)
    }

    @Test(
        "a fix with NaN, out-of-range numbers or time going backwards is refused in one line, and the tracker goes on as before it",
        arguments: [
            (Fix(coordinate: Coordinate(latitude: .nan, longitude: 14.5), time: 10), "latitude nan is not a number from -90 to 90"),
            (Fix(coordinate: Coordinate(latitude: 46.05, longitude: 181), time: 10), "longitude 181.0 is not a number from -180 to 180"),
            (Fix(coordinate: Coordinate(latitude: 91, longitude: 14.5), time: 10), "latitude 91.0 is not a number from -90 to 90"),
            (Fix(coordinate: MadeCourse.origin, time: 10, accuracy: -1), "accuracy -1.0 is not a number of metres from 0 to 100000"),
            (Fix(coordinate: MadeCourse.origin, time: 10, speed: .infinity), "speed inf is not a number of metres per second from 0 to 1000"),
            (
                Fix(coordinate: MadeCourse.origin, time: 0),
                "time goes backwards: 1970-01-01T00:00:00Z comes after 1970-01-01T00:00:05Z"
            ),
        ])
    func badFixes(fix: Fix, message: String) throws {
        let course = try RouteCourse(route: Route(stages: [Stage(coordinates: MadeCourse.outAndBack.coordinates)]))
        var tracker = RouteTracker(course: course)
        let first = try tracker.update(Fix(coordinate: MadeCourse.origin, time: 5))
        #expect(throws: FixError(message)) { try tracker.update(fix) }
        var fresh = RouteTracker(course: course)
        _ = try fresh.update(Fix(coordinate: MadeCourse.origin, time: 5))
        let next = Fix(coordinate: MadeCourse.line(from: MadeCourse.origin, azimuth: 80, metres: 20).last ?? MadeCourse.origin, time: 9)
        #expect(try tracker.update(next) == (try fresh.update(next)))
        #expect(first.onRoute)
    }

    @Test("ISO 8601 times read and write back; anything else is not a time")
    func times() {
        #expect(FixTime.seconds(iso8601: "1970-01-01T00:00:00Z") == 0)
        #expect(FixTime.seconds(iso8601: "2024-02-29T12:30:15.250+02:00") == 1_709_202_615.25)
        #expect(FixTime.iso8601(1_709_202_615.25) == "2024-02-29T10:30:15.250Z")
        for bad in ["", "2024-02-30T00:00:00Z", "2024-01-01T00:00:00", "2024-01-01T24:00:00Z", "yesterday", "2024-01-01T00:00:00Zjunk"] {
            #expect(FixTime.seconds(iso8601: bad) == nil, "\(bad)")
        }
    }
}
