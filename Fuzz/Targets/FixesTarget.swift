import RouteModel
import RouteFormats
import RideTracking
import MarkerSpec

/// libFuzzer target: any bytes read as fixes (the first byte picks GPX, CSV, NDJSON or the
/// content's own choice), each fix that reads followed along a small course of two stages, and the
/// lines written of it read back.
enum FixesTarget: FuzzTarget {
    static let name = "fixes"

    /// Two stages near Ljubljana, about 1.6 km and 1.1 km, the second turning back along the first.
    static let course: RouteCourse? = {
        let stages = [
            [Coordinate(latitude: 46.05, longitude: 14.50), Coordinate(latitude: 46.06, longitude: 14.51)],
            [Coordinate(latitude: 46.06, longitude: 14.51), Coordinate(latitude: 46.055, longitude: 14.52), Coordinate(latitude: 46.05, longitude: 14.505)],
        ]
        return try? RouteCourse(route: Route(stages: stages.map { Stage(coordinates: $0) }))
    }()

    static func fuzz(_ bytes: [UInt8]) {
        guard let selector = bytes.first, let course else { return }
        let format: FixFormat? = [nil, .gpx, .csv, .ndjson][Int(selector % 4)]
        guard let records = try? FixReader.read(Array(bytes.dropFirst()), format: format) else { return }
        FuzzHarness.require(!records.isEmpty && records.count <= FixReader.maximumFixes, "\(records.count) records")
        // In order: a line a fix in CSV and NDJSON, and in GPX the line each point starts on (a file
        // may put several on one line).
        FuzzHarness.require(zip(records, records.dropFirst()).allSatisfy { $0.line <= $1.line } && records[0].line >= 1, "lines out of order")
        var tracker = RouteTracker(course: course)
        var followed = 0
        for record in records {
            guard case .success(let fix) = record.fix else {
                if case .failure(let error) = record.fix { readsBack(ProgressLine.refusal(line: record.line, error), error.message) }
                continue
            }
            guard let progress = try? tracker.update(fix) else { continue }
            followed += 1
            check(progress, course: course)
            let line = ProgressLine(progress, fix: followed, line: record.line, unit: .km).json
            // A line reads back as JSON whose lat and lon are the snapped place, to its 7 decimals.
            guard case .success(let again) = FixReader.ndjsonFix(Array(line.utf8)) else {
                FuzzHarness.require(false, "\(line) does not read back")
                return
            }
            FuzzHarness.require(
                abs(again.coordinate.latitude - progress.snapped.latitude) <= 1e-7
                    && abs(again.coordinate.longitude - progress.snapped.longitude) <= 1e-7, "\(line) moved")
            FuzzHarness.require((try? Marker.countdown(remaining: progress.remaining, unit: .km, interval: .one, mark: .point)) != nil, "no countdown marker")
        }
    }

    /// What holds for any fix followed: a place on the course, distances that add up, a bounded threshold.
    static func check(_ progress: RouteProgress, course: RouteCourse) {
        let slack = 1e-6 * course.length + 1e-6
        FuzzHarness.require(progress.distance >= -slack && progress.distance <= course.length + slack, "distance \(progress.distance)")
        FuzzHarness.require(abs(progress.distance + progress.remaining - course.length) <= slack, "distance and remaining do not add up")
        FuzzHarness.require((1...course.stageLengths.count).contains(progress.stage), "stage \(progress.stage)")
        let stageLength = course.stageLengths[progress.stage - 1]
        FuzzHarness.require(abs(progress.stageDistance + progress.stageRemaining - stageLength) <= slack, "stage distances do not add up")
        FuzzHarness.require(progress.offset.isFinite && progress.offset >= 0, "offset \(progress.offset)")
        FuzzHarness.require((20...100).contains(progress.threshold), "threshold \(progress.threshold)")
        FuzzHarness.require(
            progress.snapped.latitude.isFinite && abs(progress.snapped.latitude) <= 90 && progress.snapped.longitude.isFinite
                && abs(progress.snapped.longitude) <= 180, "snapped \(progress.snapped)")
    }

    /// A refusal's line is JSON: read as a fix, it is an object without "lat", never unreadable.
    static func readsBack(_ line: String, _ message: String) {
        guard case .failure(let error) = FixReader.ndjsonFix(Array(line.utf8)), error.message == "the fix has no \"lat\"" else {
            FuzzHarness.require(false, "the refusal \(line) of \(message.debugDescription) is not a JSON object")
            return
        }
    }
}
