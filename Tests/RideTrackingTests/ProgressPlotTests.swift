import Foundation
import RouteModel
import RideTracking
import TestSupport
import Testing

/// The picture of the tracker in docs/progress.md: a noisy ride of three laps, its fixes and where they were
/// placed on the course, and distance done against the truth beside the seed app's rule (the
/// nearest point of the whole route). The test draws it, checks what it shows, and renders it with
/// rsvg-convert; `MARKERPAINT_WRITE_DOC_IMAGES=1` writes it to `docs/images/progress-laps.svg`.
@Suite("The tracker's picture")
struct ProgressPlotTests {
    /// Metres east and north of the course's centre.
    struct Point {
        var x: Double
        var y: Double

        init(_ coordinate: Coordinate) {
            let origin = MadeCourse.origin
            x = (coordinate.longitude - origin.longitude) * cos(origin.latitude * .pi / 180) * 111_320
            y = (coordinate.latitude - origin.latitude) * 110_540
        }
    }

    /// The seed app's rule: the nearest point of the whole route, and the distance along to it.
    static func nearestOfAll(_ fix: Coordinate, points: [Point], along: [Double]) -> Double {
        let here = Point(fix)
        var best = (distance: Double.infinity, along: 0.0)
        for (point, metres) in zip(points, along) {
            let distance = hypot(point.x - here.x, point.y - here.y)
            if distance < best.distance { best = (distance, metres) }
        }
        return best.along
    }

    /// Three laps ridden with drifting errors (σ 15 m over 60 s) and spikes, a fix each 2 s, no speed.
    static func lapsRide() throws -> RideOutcome {
        let errors = GPSErrors(sigma: 15, correlationTime: 60, interval: 2, receiver: .bare)
        return try RideOutcome(GPSRide(course: RideCourse(name: "laps", route: MadeCourse.laps.route), errors: errors, pace: 6, detour: true, seed: 7))
    }

    @Test("three noisy laps: the tracker stays on the lap being ridden, the nearest point of the route does not")
    func laps() throws {
        let outcome = try Self.lapsRide()
        let samples = outcome.ride.samples
        let course = MadeCourse.laps.coordinates.map(Point.init)
        var along = [0.0]
        for (a, b) in zip(course, course.dropFirst()) { along.append(along[along.count - 1] + hypot(b.x - a.x, b.y - a.y)) }
        let seed = samples.map { Self.nearestOfAll($0.fix.coordinate, points: course, along: along) }
        let onCourse = outcome.onCourse
        let trackerWorst = onCourse.map { abs(outcome.progress[$0].distance - samples[$0].along) }.max() ?? 0
        let seedWorst = onCourse.map { abs(seed[$0] - samples[$0].along) }.max() ?? 0
        #expect(trackerWorst < 100, "the tracker strayed \(Int(trackerWorst)) m")
        // Every lap lies on the first: the nearest point is always on lap 1, two laps behind by the end.
        #expect(seedWorst > 3_500, "the seed's rule strayed only \(Int(seedWorst)) m")

        let svg = Self.svg(outcome: outcome, course: course, seed: seed, trackerWorst: trackerWorst, seedWorst: seedWorst)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("progress-plot-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let file = folder.appendingPathComponent("progress-laps.svg")
        try Data(svg.utf8).write(to: file)
        let png = folder.appendingPathComponent("progress-laps.png").path
        _ = try Command.output("/usr/bin/rsvg-convert", ["--format", "png", "--output", png, file.path])
        // The PNG's IHDR holds its width and height, big-endian, at bytes 16-23.
        let header = [UInt8](try Data(contentsOf: URL(fileURLWithPath: png)).prefix(24))
        let size = stride(from: 16, to: 24, by: 4).map { header[$0..<($0 + 4)].reduce(0) { $0 << 8 | Int($1) } }
        #expect(size == [960, 460])
        if ProcessInfo.processInfo.environment["MARKERPAINT_WRITE_DOC_IMAGES"] == "1" {
            try Data(svg.utf8).write(to: Repository.root.appendingPathComponent("docs/images/progress-laps.svg"))
        }
    }

    /// Map on the left, distance against time on the right.
    static func svg(outcome: RideOutcome, course: [Point], seed: [Double], trackerWorst: Double, seedWorst: Double) -> String {
        let samples = outcome.ride.samples
        func f(_ value: Double) -> String { String(format: "%.1f", value) }
        // The map: every fix and the course fitted, north up, into 400 by 340 px.
        let all = course + samples.map { Point($0.fix.coordinate) }
        let (west, east) = (all.map(\.x).min() ?? 0, all.map(\.x).max() ?? 1)
        let (south, north) = (all.map(\.y).min() ?? 0, all.map(\.y).max() ?? 1)
        let scale = min(400 / (east - west), 340 / (north - south))
        let (centreX, centreY) = ((west + east) / 2, (south + north) / 2)
        func map(_ point: Point) -> (Double, Double) { (230 + (point.x - centreX) * scale, 225 - (point.y - centreY) * scale) }
        var parts: [String] = []
        parts.append(##"<rect width="960" height="460" fill="#ffffff"/>"##)
        parts.append(##"<text x="20" y="28" font-size="14" font-weight="600">Three laps of a 2 km circle: fixes drifting σ 15 m over 60 s with 1% spikes, a fix each 2 s without speed, a stop and a 60 m detour</text>"##)
        let coursePath = course.map { let (x, y) = map($0); return "\(f(x)),\(f(y))" }.joined(separator: " ")
        parts.append(##"<polyline points="\##(coursePath)" fill="none" stroke="#b9c0c8" stroke-width="9" stroke-linejoin="round"/>"##)
        for (sample, progress) in zip(samples, outcome.progress) {
            let (x, y) = map(Point(sample.fix.coordinate))
            let colour = progress.onRoute ? "#2f6fbf" : "#d0342c"
            parts.append(##"<circle cx="\##(f(x))" cy="\##(f(y))" r="1.8" fill="\##(colour)" fill-opacity="0.6"/>"##)
        }
        for progress in outcome.progress where progress.onRoute {
            let (x, y) = map(Point(progress.snapped))
            parts.append(##"<circle cx="\##(f(x))" cy="\##(f(y))" r="1.1" fill="#1a1a1a"/>"##)
        }
        parts.append(##"<circle cx="30" cy="430" r="3" fill="#2f6fbf"/><text x="38" y="434" font-size="12">fix, on route</text>"##)
        parts.append(##"<circle cx="130" cy="430" r="3" fill="#d0342c"/><text x="138" y="434" font-size="12">fix, off route</text>"##)
        parts.append(##"<circle cx="230" cy="430" r="2" fill="#1a1a1a"/><text x="238" y="434" font-size="12">where the tracker placed it</text>"##)

        // The chart: minutes across, kilometres up.
        let start = samples.first?.fix.time ?? 0
        let minutes = ((samples.last?.fix.time ?? 0) - start) / 60
        let (left, right, top, bottom) = (500.0, 940.0, 60.0, 380.0)
        func chart(_ minute: Double, _ metres: Double) -> (Double, Double) {
            (left + (right - left) * minute / minutes, bottom - (bottom - top) * metres / outcome.ride.course.length)
        }
        parts.append(##"<rect x="\##(left)" y="\##(top)" width="\##(right - left)" height="\##(bottom - top)" fill="none" stroke="#d0d4d9"/>"##)
        for kilometre in stride(from: 0.0, through: outcome.ride.course.length / 1000, by: 1) {
            let (_, y) = chart(0, kilometre * 1000)
            parts.append(##"<line x1="\##(left)" x2="\##(right)" y1="\##(f(y))" y2="\##(f(y))" stroke="#eef0f2"/>"##)
            parts.append(##"<text x="\##(left - 8)" y="\##(f(y + 4))" font-size="11" text-anchor="end">\##(Int(kilometre)) km</text>"##)
        }
        for minute in stride(from: 5.0, through: minutes, by: 5) {
            let (x, _) = chart(minute, 0)
            parts.append(##"<text x="\##(f(x))" y="\##(bottom + 16)" font-size="11" text-anchor="middle">\##(Int(minute)) min</text>"##)
        }
        let truth = samples.map { let (x, y) = chart((($0.fix.time ?? start) - start) / 60, $0.along); return "\(f(x)),\(f(y))" }
        parts.append(##"<polyline points="\##(truth.joined(separator: " "))" fill="none" stroke="#b9c0c8" stroke-width="6" stroke-linejoin="round"/>"##)
        for (sample, metres) in zip(samples, seed) {
            let (x, y) = chart(((sample.fix.time ?? start) - start) / 60, metres)
            parts.append(##"<circle cx="\##(f(x))" cy="\##(f(y))" r="1.6" fill="#e08a1e"/>"##)
        }
        for (sample, progress) in zip(samples, outcome.progress) {
            let (x, y) = chart(((sample.fix.time ?? start) - start) / 60, progress.distance)
            parts.append(##"<circle cx="\##(f(x))" cy="\##(f(y))" r="1.6" fill="#2f6fbf"/>"##)
        }
        parts.append(##"<text x="\##(left)" y="\##(top - 12)" font-size="13" font-weight="600">Distance done</text>"##)
        parts.append(##"<rect x="\##(left)" y="412" width="14" height="5" fill="#b9c0c8"/><text x="\##(left + 20)" y="419" font-size="12">truth</text>"##)
        parts.append(
            ##"<circle cx="\##(left + 90)" cy="415" r="3" fill="#2f6fbf"/><text x="\##(left + 98)" y="419" font-size="12">RouteTracker: worst \##(Int(trackerWorst.rounded())) m off</text>"##)
        parts.append(
            ##"<circle cx="\##(left + 7)" cy="435" r="3" fill="#e08a1e"/><text x="\##(left + 20)" y="439" font-size="12">nearest point of the route, the app's rule: worst \##(String(format: "%.1f", seedWorst / 1000)) km off</text>"##)
        return ##"<svg xmlns="http://www.w3.org/2000/svg" width="960" height="460" viewBox="0 0 960 460" font-family="Inter, sans-serif" fill="#1a1a1a">"##
            + "\n" + parts.joined(separator: "\n") + "\n</svg>\n"
    }
}
