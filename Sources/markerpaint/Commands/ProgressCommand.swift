import ArgumentParser
import CommandSupport
import MarkerFiles
import MarkerRender
import RouteModel
import RouteFormats
import RideTracking
import MarkerSpec
import SystemPackage

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Where a rider is along a route, fix by fix, with the countdown marker for the distance to go.
struct ProgressCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "progress",
        abstract: "Follow GPS fixes along a route: one NDJSON line a fix with the snapped place, distance done and to go, and on/off route.",
        discussion: """
            Examples:
              markerpaint progress ride.gpx recorded.gpx
              markerpaint progress ride.gpx fixes.csv --unit mi --out markers
              phone-feed | markerpaint progress ride.gpx -      # NDJSON in, a line out as each fix arrives
            FIXES is a GPX track, a CSV with a header (lat, lon; optionally time, accuracy, speed) or - for
            NDJSON on standard input ({"lat": 46.05, "lon": 14.5, "time": "2024-05-01T10:00:00Z"}).
            Each line out has lon and lat (on the route), distance and remaining (in --unit), stage,
            stageDistance, stageRemaining, offset (metres from the route), onRoute, threshold, event (start,
            stageFinish, finish) and marker: the countdown marker nearest the rider, as route --countdown
            names it, drawn into --out (markers, one per theme).
            A fix that cannot be followed (not a number, out of range, time going backwards) is reported on
            standard error with its line and skipped; the run goes on, and exits 1 at the end if any was.
            """
    )

    @Argument(help: ArgumentHelp("The route: GeoJSON, GPX or an encoded polyline.", valueName: "route"))
    var route: String

    @Argument(help: ArgumentHelp("The fixes: a GPX, a CSV, or - for NDJSON on standard input.", valueName: "fixes"))
    var fixes: String

    @Option(help: ArgumentHelp("Folder the countdown markers are drawn into; made if missing.", valueName: "dir"))
    var out = "."

    @OptionGroup var reading: LabelOptions

    @OptionGroup var themes: ThemesOption

    @Option(help: ArgumentHelp("Pixel scale of the markers: 1, 1.5, 2, 3 or 4.", valueName: "scale"))
    var scale = "2"

    @Option(help: "The fixes' format when the name does not say: gpx, csv or ndjson.")
    var fixFormat: FixFormat?

    @Option(help: ArgumentHelp("Off-route threshold in metres for fixes without accuracy or speed (20 to 100).", valueName: "metres"))
    var threshold = 30.0

    func validate() throws {
        guard !out.isEmpty else { throw ValidationError("--out is empty; name the folder to draw markers into") }
        guard threshold.isFinite, (20...100).contains(threshold) else { throw ValidationError("--threshold must be 20 to 100 metres") }
        _ = try parsedThemes()
        _ = try parsedScale()
    }

    func parsedThemes() throws -> [Theme] {
        try themes.parsed(default: "day")
    }

    func parsedScale() throws -> MarkerScale {
        guard let parsed = try? MarkerScale(scale) else { throw ValidationError("--scale: \"\(scale)\" is not \(MarkerScale.choices)") }
        return parsed
    }

    func run() throws {
        let course = try RouteCourse(route: Route.load(path: route, format: nil))
        var options = RideFollower.Options()
        options.tracker.threshold = threshold
        options.unit = reading.unit
        options.interval = try reading.parsedInterval()
        options.mark = try reading.parsedLocale().decimalMark
        var follower = RideFollower(course: course, options: options)
        let markers = try CountdownMarkers(themes: parsedThemes(), scale: parsedScale(), folder: FilePath(out))
        let fixName = fixes == "-" ? "standard input" : fixes
        // Live, each line goes out as its fix is followed; from a file, in blocks of 64 KiB.
        var output = LineOutput(flushingEveryLine: fixes == "-")
        defer { output.flush() }
        func follow(_ record: FixRecord) throws {
            switch try follower.follow(record) {
            case .followed(let progress, let fix, let line, let marker):
                var text = ProgressLine(progress, fix: fix, line: line, unit: reading.unit)
                text.append("marker", try markers.names(of: marker))
                output.write(text.json)
            case .refused(let line, let error):
                output.flush()
                Terminal.write("markerpaint: \(fixName): line \(line): \(error.message)\n", to: .error)
            }
        }
        if fixes == "-" {
            // Live: each line answered as it arrives, each held to a length a fix never needs.
            var lines = LineReader(.standardInput, maximumLength: FixReader.maximumLineBytes)
            var number = 0
            while let line = try readLine(&lines) {
                number += 1
                switch line {
                case .text(let bytes):
                    guard !FixReader.isBlank(bytes[...]) else { continue }
                    try follow(FixRecord(line: number, fix: FixReader.ndjsonFix(bytes)))
                case .tooLong(let bytes):
                    try follow(FixRecord(line: number, fix: .failure(FixReader.lineTooLong(bytes: bytes))))
                }
            }
        } else {
            let records = try FixReader.load(path: fixes, format: fixFormat)
            for record in records { try follow(record) }
        }
        if follower.refused > 0 {
            throw RouteError("\(follower.refused) of \(follower.refused + follower.followed) fixes could not be followed (each named above)")
        }
    }
}

/// Lines for standard output, written in blocks (or each at once, for a live feed).
struct LineOutput {
    let flushingEveryLine: Bool
    private var pending: [UInt8] = []

    init(flushingEveryLine: Bool) {
        self.flushingEveryLine = flushingEveryLine
    }

    mutating func write(_ line: String) {
        pending.append(contentsOf: line.utf8)
        pending.append(0x0A)
        if flushingEveryLine || pending.count >= 1 << 16 { flush() }
    }

    mutating func flush() {
        guard !pending.isEmpty else { return }
        _ = DescriptorOutput.writeAll(pending, to: 1)
        pending.removeAll(keepingCapacity: true)
    }
}

/// The next line of standard input, or a one-line error saying why it cannot be read.
private func readLine(_ lines: inout LineReader) throws -> LineReader.Line? {
    do {
        return try lines.next()
    } catch {
        throw RouteError("standard input cannot be read (\(error))")
    }
}

/// The countdown markers a run names, each drawn once per theme into the folder.
final class CountdownMarkers {
    let themes: [Theme]
    let scale: MarkerScale
    let folder: Folder
    let renderer: MarkerRenderer
    /// The names drawn so far, by marker.
    private var drawn: [Marker: [String]] = [:]

    init(themes: [Theme], scale: MarkerScale, folder: FilePath) throws {
        self.themes = themes
        self.scale = scale
        self.folder = try Folder.create(folder)
        renderer = try MarkerRenderer()
    }

    /// The file names, one per theme, of `marker`, drawn into the folder the first time it is named.
    func names(of marker: Marker) throws -> [String] {
        if let known = drawn[marker] { return known }
        var names: [String] = []
        for theme in themes {
            let (image, bytes) = try renderer.renderFile(try MarkerRequest(marker: marker, theme: theme, scale: scale), format: .png)
            _ = try folder.write(bytes, as: image.fileName)
            names.append(image.fileName)
        }
        drawn[marker] = names
        return names
    }
}
