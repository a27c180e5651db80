import ArgumentParser
import Foundation
import RouteModel
import RideTracking

extension MarkerBench {
    /// Following a rider on a huge route: the tracker against the seed app's scan of every segment.
    struct ProgressRun: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "progress",
            abstract: "Follow fixes along a 1M-point route on one core, against the seed app's scan of every segment in the same run.",
            discussion: """
                The route is the winding walk `placement` uses (about 8 m between points). A rider goes along it at 5 m/s, \
                a fix a second with noise of 5 m. The build (measuring, cutting, the tree) and the tracking are each the \
                median of --runs; the seed's scan (every segment, on cached Web Mercator points, as RouteTrackingManager) \
                is timed on --scan-fixes of the same fixes.
                """
        )

        @Option(help: "Points in the route.") var points = 1_000_000
        @Option(help: "Fixes to follow.") var fixes = 1_000_000
        @Option(help: "Fixes the seed's scan is timed on (each scans every segment).") var scanFixes = 200
        @Option(help: "Runs; each figure is the median run.") var runs = 5

        func validate() throws {
            guard (2...10_000_000).contains(points) else { throw ValidationError("--points must be 2 to 10000000") }
            guard (1...10_000_000).contains(fixes) else { throw ValidationError("--fixes must be 1 to 10000000") }
            guard (1...100_000).contains(scanFixes) else { throw ValidationError("--scan-fixes must be 1 to 100000") }
            guard (1...100).contains(runs) else { throw ValidationError("--runs must be 1 to 100") }
        }

        func run() throws {
            let coordinates = SyntheticRoute.winding(points: points)
            let route = Route(stages: [Stage(name: "bench", coordinates: coordinates)])
            var buildTimes: [Double] = []
            var course: RouteCourse? = nil
            for _ in 1...runs {
                let (built, time) = try timed { try RouteCourse(route: route) }
                buildTimes.append(time)
                course = built
            }
            guard let course else { return }

            // The rider: 5 m a second along the route, a fix a second, noise of about 5 m each way.
            var random = UInt64(0x5EED)
            func noise() -> Double {
                random = random &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                return (Double(random >> 11) / Double(1 << 53) - 0.5) * 10
            }
            let start = 1_700_000_000.0
            let riderFixes: [Fix] = (0..<fixes).map { index in
                let truth = course.coordinate(atDistance: min(Double(index) * 5, course.length))
                let metresPerDegree = 111_320.0
                return Fix(
                    coordinate: Coordinate(
                        latitude: truth.latitude + noise() / metresPerDegree,
                        longitude: truth.longitude + noise() / (metresPerDegree * cos(truth.latitude * .pi / 180))),
                    time: start + Double(index))
            }

            var trackTimes: [Double] = []
            var last: RouteProgress? = nil
            for _ in 1...runs {
                var tracker = RouteTracker(course: course)
                let (progress, time) = try timed { () throws -> RouteProgress? in
                    var progress: RouteProgress? = nil
                    for fix in riderFixes { progress = try tracker.update(fix) }
                    return progress
                }
                trackTimes.append(time)
                last = progress
            }

            let scan = SeedScan(coordinates)
            let scanned = Array(riderFixes.prefix(scanFixes))
            var checksum = 0.0
            let (_, scanTime) = timed {
                for fix in scanned { checksum += scan.nearest(fix.coordinate) }
            }

            let median = { (values: [Double]) in values.sorted()[values.count / 2] }
            let build = median(buildTimes)
            let track = median(trackTimes)
            let rate = Double(fixes) / track
            let scanRate = Double(scanned.count) / scanTime
            print("route: \(points) points, \(String(format: "%.1f", course.length / 1000)) km; \(fixes) fixes, 1 a second at 5 m/s")
            print("build (measure, cut, tree): \(String(format: "%.3f", build)) s (median of \(runs))")
            print("tracker: \(String(format: "%.0f", rate)) fixes/s (\(String(format: "%.3f", track)) s for \(fixes), median of \(runs))")
            print("seed's scan of every segment: \(String(format: "%.1f", scanRate)) fixes/s (\(scanned.count) fixes in \(String(format: "%.3f", scanTime)) s)")
            print("ratio: \(String(format: "%.0f", rate / scanRate))x the seed's scan")
            if let last {
                print(
                    "last fix: \(String(format: "%.1f", last.distance / 1000)) km along, \(last.onRoute ? "on" : "off") the course (checksum \(String(format: "%.0f", checksum)))"
                )
            }
        }

    }
}

/// The seed app's `RouteTrackingManager.updateDriverLocation`: the perpendicular distance to every
/// segment, on Web Mercator points cached once (its `MKMapPoint`s), the least kept.
struct SeedScan {
    let points: [(x: Double, y: Double)]

    init(_ coordinates: [Coordinate]) {
        points = coordinates.map(WebMercator.point)
    }

    /// The squared distance, in Mercator points, from `coordinate` to the nearest segment.
    func nearest(_ coordinate: Coordinate) -> Double {
        let p = WebMercator.point(coordinate)
        var best = Double.infinity
        for index in points.indices.dropFirst() {
            let a = points[index - 1]
            let b = points[index]
            let (dx, dy) = (b.x - a.x, b.y - a.y)
            let squared = dx * dx + dy * dy
            var t = squared > 0 ? ((p.x - a.x) * dx + (p.y - a.y) * dy) / squared : 0
            t = min(max(t, 0), 1)
            let (ex, ey) = (a.x + t * dx - p.x, a.y + t * dy - p.y)
            best = min(best, ex * ex + ey * ey)
        }
        return best
    }
}
