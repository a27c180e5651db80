import Foundation
@testable import MarkerRoute
import TestSupport
import Testing

@Suite("Riding on real GPS errors: drift, spikes, a fix each 1 s or 5 s, with and without speed")
struct RouteTrackerTests {
    @Test("the start is the start, no leg jumps, p99 within 3σ + 10 m, off route means off", arguments: RideCase.all)
    func ride(_ ride: RideCase) throws {
        let outcome = try RideOutcome(ride.ride())
        let length = outcome.ride.course.length
        let sigma = ride.errors.sigma
        // 1. Standing at the start reads the start; the finish comes once, at the finish.
        #expect(outcome.worstAtStart <= 3 * sigma + 10, "\(ride): read \(Int(outcome.worstAtStart)) m at the start")
        #expect(outcome.starts.count == 1, "\(ride): start events at \(outcome.starts)")
        #expect(outcome.finishes.count == 1, "\(ride): finish events at \(outcome.finishes)")
        if let finish = outcome.finishes.first {
            #expect(length - outcome.samples[finish].along <= 3 * sigma + 10, "\(ride): finished \(Int(length - outcome.samples[finish].along)) m early")
        }
        // 2. No fix placed more than 100 m along from the rider.
        #expect(outcome.strays == 0, "\(ride): \(outcome.strays) fixes more than 100 m from the rider, worst \(Int(outcome.worst)) m")
        // 3. Accurate.
        #expect(outcome.percentile99 <= 3 * sigma + 10, "\(ride): p99 \(outcome.percentile99) m")
        // 4. Off route means off.
        let share = Double(outcome.falseOff.count) / Double(outcome.onCourse.count)
        #expect(share <= 0.005, "\(ride): \(outcome.falseOff.count) of \(outcome.onCourse.count) fixes on the course flagged off")
        #expect(outcome.offBySpike.isEmpty, "\(ride): flagged off by a lone spike at \(outcome.offBySpike)")
        let delays = try #require(outcome.detourDelays, "\(ride): no place for a detour")
        #expect(delays.flagged.map { $0 <= 3 } == true, "\(ride): the detour flagged after \(String(describing: delays.flagged)) fixes")
        #expect(delays.rejoined.map { $0 <= 3 } == true, "\(ride): back on after \(String(describing: delays.rejoined)) fixes")
        #expect(!delays.flappedWhileAway, "\(ride): flagged on while 60 m away")
    }

    @Test("debug", .enabled(if: ProcessInfo.processInfo.environment["MARKERPAINT_RIDE_DEBUG"] != nil))
    func debug() throws {
        // MARKERPAINT_RIDE_DEBUG=<index in RideCase.all>[,<first fix>,<last fix>]
        let parts = (ProcessInfo.processInfo.environment["MARKERPAINT_RIDE_DEBUG"] ?? "").split(separator: ",").compactMap { Int($0) }
        let ride = RideCase.all[parts[0]]
        let gps = try ride.ride()
        var tracker = RouteTracker(course: try RouteCourse(route: gps.course.route))
        let first = parts.count > 1 ? parts[1] : 0
        let last = parts.count > 2 ? parts[2] : gps.samples.count - 1
        var lines = ["\(ride); detour \(String(describing: gps.detour))"]
        for (index, sample) in gps.samples.enumerated() {
            tracker.debugging = (first...last).contains(index) && parts.count > 3
            tracker.debugLines = []
            let progress = try tracker.update(sample.fix)
            guard (first...last).contains(index) else { continue }
            lines += tracker.debugLines
            let hypotheses = tracker.hypothesesForTesting.map {
                String(format: "%.0f@%.1f c%.1f o%@", $0.along, $0.velocity, $0.cost, $0.offset.map { String(format: "%.0f", $0) } ?? "-")
            }
            lines.append(
                String(format: "%5d t%6.0f truth %7.1f off %4.0f d%3.0f | est %7.1f err %6.1f offset %5.1f thr %5.1f %@ %@%@ | ", index,
                    (sample.fix.time ?? 0) - 1_700_000_000, sample.along, sample.offset, sample.drift, progress.distance, progress.distance - sample.along,
                    progress.offset, progress.threshold, progress.onRoute ? "on " : "OFF", sample.spike ? "SPIKE " : "", progress.event?.rawValue ?? "")
                    + String(format: "σ%.0f w%.0f ", tracker.noiseForTesting.sigma, tracker.noiseForTesting.white) + hypotheses.joined(separator: " "))
        }
        try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: URL(fileURLWithPath: "/tmp/debug.txt"))
    }

    @Test("detour statistics", .enabled(if: ProcessInfo.processInfo.environment["MARKERPAINT_DETOUR_REPORT"] != nil))
    func detourStatistics() throws {
        var lines: [String] = []
        let courses: [MadeCourse] = [.loop, .laps, .crossesItself]
        for sigma in [8.0, 12, 15] {
            for correlation in [30.0, 90] {
                for (interval, receiver) in [(1.0, GPSErrors.Receiver.bare), (5, .bare), (1, .phone), (5, .phone)] {
                    var (rides, flagged, rejoined, flapped, falseOff, onCourse) = (0, 0, 0, 0, 0, 0)
                    for seed in 1...6 {
                        let course = courses[seed % courses.count]
                        let errors = GPSErrors(sigma: sigma, correlationTime: correlation, interval: interval, receiver: receiver)
                        let ride = try GPSRide(course: RideCourse(name: course.rawValue, route: course.route), errors: errors, pace: 6, detour: true, seed: UInt64(1000 + seed))
                        let outcome = try RideOutcome(ride)
                        guard let delays = outcome.detourDelays else { continue }
                        rides += 1
                        if (delays.flagged ?? 99) <= 3 { flagged += 1 }
                        if (delays.rejoined ?? 99) <= 3 { rejoined += 1 }
                        if delays.flappedWhileAway { flapped += 1 }
                        falseOff += outcome.falseOff.count
                        onCourse += outcome.onCourse.count
                    }
                    lines.append("σ \(Int(sigma)) τ \(Int(correlation)) \(Int(interval)) s \(receiver): detours \(rides), flagged ≤3 \(flagged), back ≤3 \(rejoined), flapped \(flapped), false off \(falseOff)/\(onCourse)")
                }
            }
        }
        let path = ProcessInfo.processInfo.environment["MARKERPAINT_DETOUR_REPORT"] ?? ""
        try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: URL(fileURLWithPath: path))
    }

    @Test("report", .enabled(if: ProcessInfo.processInfo.environment["MARKERPAINT_RIDE_REPORT"] != nil))
    func report() throws {
        var lines: [String] = []
        for ride in RideCase.all {
            let outcome = try RideOutcome(ride.ride())
            lines.append("\(ride.course) " + outcome.summary)
        }
        let path = ProcessInfo.processInfo.environment["MARKERPAINT_RIDE_REPORT"] ?? ""
        try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: URL(fileURLWithPath: path))
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
        let course = try RouteCourse(route: MadeCourse.roadSides.route)
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
