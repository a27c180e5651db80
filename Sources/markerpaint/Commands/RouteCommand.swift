import ArgumentParser
import CommandSupport
import MarkerMap
import MarkerOutput
import MarkerRender
import RouteModel
import RouteFormats
import RoutePlacement
import MarkerSpec
import MarkerPNG
import OfflineCorridor
import Synchronization
import SystemPackage

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Every marker image of a route plus the data a MapLibre/Mapbox map needs to show them.
struct RouteCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "route",
        abstract: "Draw every marker of a route, and a pin and callout for each of its waypoints, and write markers.geojson, manifest.json, sprites and a style.",
        discussion: """
            Examples:
              markerpaint route ride.gpx --out ride-markers
              markerpaint route stages.geojson --out out --themes night --scales 1,2,3 --cumulative
              markerpaint route - --polyline6 --unit mi --out out < route.txt
              markerpaint route ride.gpx --target ios --out App    # App/Markers.xcassets
            Markers are placed by geodesic distance on the WGS84 ellipsoid. A GPX <wpt> or GeoJSON Point
            becomes a pin (its <sym> or marker-symbol names the icon) that opens a callout with its
            name and description; at most 1,000 are kept. --out must be new, empty, or
            written only by markerpaint: a folder holding anything else is refused. New files are drawn
            aside and moved in when all are ready; what the earlier run wrote and this one does not is
            then removed. Images an earlier run drew are reused, not drawn again.
            With --target ios, android or web, the route's markers are written in that platform's form
            instead (see markerpaint set --help); --out may then hold anything else.
            """
    )

    @Argument(help: ArgumentHelp("A GeoJSON or GPX file, or an encoded polyline; - reads standard input.", valueName: "file"))
    var file: String

    @Option(help: ArgumentHelp("Folder to write, made if missing; it may hold only what markerpaint wrote before.", valueName: "dir"))
    var out: String

    @Option(help: "What to write: maplibre (sprites, GeoJSON, style), ios (asset catalog), android (res/drawable-*), web (SVGs, markers.json).")
    var target: PlatformTarget = .maplibre

    @Option(help: "File format of the images: png; pdf for --target ios (vector imagesets); svg for --target web (its default).")
    var format: ImageFormat?

    @OptionGroup var themes: ThemesOption

    @Option(help: ArgumentHelp("A JSON palette file to draw as one more theme.", valueName: "file"))
    var palette: String?

    @Option(help: ArgumentHelp("Comma-separated pixel scales from 1, 1.5, 2, 3, 4 (default 1,2).", valueName: "list"))
    var scales: String?

    @OptionGroup var reading: LabelOptions

    @Flag(help: "Markers between count down to each stage's end (−45km: 45 km to go) instead of up from its start.")
    var countdown = false

    @Flag(help: "Count on across stages instead of restarting at 0 for each.")
    var cumulative = false

    @Option(
        help: ArgumentHelp(
            "Which zooms show each marker: fit (placed on the map: at each zoom the most useful markers that fit, none over another) or table (the original app's zoom table).",
            valueName: "rule"))
    var zooms: MarkerPlan.Visibility = .fit

    @Option(
        help: ArgumentHelp(
            "Which minzoom style.json shows markers from: north-up (minzoom) or course-up (minzoomTurned, for a map turned to the direction of travel; markers.geojson carries both).",
            valueName: "map"))
    var placement: ScreenPlacement.Rotation = .northUp

    @Flag(help: "Read the input as an encoded polyline with precision 5 (Google's).")
    var polyline5 = false

    @Flag(help: "Read the input as an encoded polyline with precision 6 (OSRM, Valhalla).")
    var polyline6 = false

    @Flag(help: "Write no sprite sheets (for routes with more images than one GPU texture holds).")
    var noSprites = false

    @Flag(help: "Smallest PNGs: libdeflate's level 12 instead of 1 (a few ms a marker instead of tens of µs).")
    var small = false

    @Option(
        help: ArgumentHelp(
            "Where the folder will be served from, for the URLs in style.json (default: the folder's own file:// URL).",
            valueName: "url"))
    var baseURL: String?

    @OptionGroup(title: "Offline pack")
    var offline: OfflineOptions

    func validate() throws {
        if polyline5 && polyline6 { throw ValidationError("--polyline5 and --polyline6 cannot be used together") }
        _ = try parsedThemes()
        _ = try parsedScales()
        guard !out.isEmpty else { throw ValidationError("--out is empty; name the folder to write") }
        _ = try checkedBaseURL()
        if let format, let refusal = target.refusal(of: format) { throw ValidationError("--format \(format.rawValue): \(refusal)") }
        if target != .maplibre {
            // The platform decides these: both themes (light and dark mode) at its own scales.
            let mapOnly: [(String, Bool)] = [
                ("--themes", themes.themes != nil), ("--scales", scales != nil), ("--palette", palette != nil), ("--no-sprites", noSprites),
                ("--base-url", baseURL != nil), ("--small", small), ("--offline", offline.offline),
            ]
            if let (flag, _) = mapOnly.first(where: { $0.1 }) {
                let scaleList = target.scales(in: format ?? target.formats[0]).map(\.description).joined(separator: ", ")
                throw ValidationError("\(flag) is for --target maplibre; --target \(target.rawValue) draws day and night at scales \(scaleList)")
            }
        }
    }

    func checkedBaseURL() throws -> String? {
        guard let baseURL else { return nil }
        do { return try MapStyle.baseURL(checking: baseURL) } catch { throw ValidationError("--base-url: \(error.message)") }
    }

    func parsedThemes() throws -> [Theme] {
        var result = try themes.parsed(default: "day,night", choices: "day, night; use --palette for your own")
        if let palette {
            do { result.append(try Theme.load(paletteFile: FilePath(palette))) } catch { throw error.validationError }
        }
        return result
    }

    /// What the flags ask of the route's markers.
    func routeOptions() throws -> RouteOptions {
        var options = RouteOptions()
        options.themes = try parsedThemes()
        options.unit = reading.unit
        options.locale = try reading.parsedLocale()
        options.interval = try reading.parsedInterval()
        options.countdown = countdown
        options.cumulative = cumulative
        options.visibility = zooms
        options.placement = placement
        options.sprites = !noSprites
        options.offline = try offline.packOptions()
        return options
    }

    func parsedScales() throws -> [MarkerScale] {
        var result: [MarkerScale] = []
        for part in (scales ?? "1,2").split(separator: ",", omittingEmptySubsequences: false) {
            guard let scale = try? MarkerScale(part.trimmingSpaces) else {
                throw ValidationError("--scales: \"\(part)\" is not \(MarkerScale.choices)")
            }
            if !result.contains(scale) { result.append(scale) }
        }
        return result.sorted()
    }

    func run() async throws {
        let compression = small ? PNGEncoder.smallCompression : PNGEncoder.defaultCompression
        // The renderers load their fonts while the route is read and planned.
        async let renderers = RouteBatch.renderers(threads: ProcessInfo.processInfo.activeProcessorCount, compression: compression)
        let inputFormat: RouteFormat? = polyline5 ? .polyline(precision: 5) : polyline6 ? .polyline(precision: 6) : nil
        let route = try Route.load(path: file, format: inputFormat)
        var options = RouteBatch.Options()
        options.route = try routeOptions()
        options.scales = try parsedScales()
        options.compression = compression
        options.baseURL = try checkedBaseURL()
        options.offlineTileBytes = try offline.parsedTileBytes()
        options.offlineTiles = try offline.tilesJob()
        options.offlineBasemapStyle = try offline.basemapStyle()
        for warning in route.warnings {
            Terminal.write("markerpaint: warning: \(warning)\n", to: .error)
        }
        let pool = try await renderers.get()
        defer { pool.shutdown() }
        // Planned on a renderer of the pool, which measures the pictures placed on the map.
        let batch: RouteBatch
        do {
            batch = try await pool.run { [options] renderer in try RouteBatch(route: route, options: options, renderer: renderer) }
        } catch let error as RouteError {
            throw RouteError("\(Route.displayName(ofPath: file)): \(error.message)")
        }
        guard target == .maplibre else {
            let summary = try await PlatformBundle.write(
                TargetContents(plan: batch.plan), target: target, format: format, unit: reading.unit, to: FilePath(out), pool: pool)
            print("\(summary.root): \(batch.plan.markers.count) markers, \(summary.pictures) pictures, \(summary.images) images")
            return
        }
        let bar = Terminal.outputIsInteractive ? ProgressBar() : nil
        let summary: RouteBatch.Summary
        do {
            let output = try RouteOutput(FilePath(out))
            summary = try await batch.write(to: output, on: pool) { done, total in
                bar?.show(done, of: total)
            }
        } catch {
            throw Self.withFlagHint(error)
        }
        bar?.finish()
        let pack = batch.offline.map { pack in
            "; offline: \(pack.count) tiles at zooms \(pack.options.zooms.lowerBound)-\(pack.options.zooms.upperBound) (the bounding box: \(pack.boxCount))"
                + (summary.offlinePack.map { " in \($0.file), \($0.bytes) bytes (\($0.absent) absent)" } ?? "")
        }
        print(
            "\(out): \(summary.markers) markers in \(summary.stages) stages" + (summary.pins > 0 ? ", \(summary.pins) pins" : "") + ", \(summary.images) images (rendered \(summary.rendered), reused \(summary.reused))"
                + (pack ?? "")
        )
    }
}

extension RouteCommand {
    /// `error`, with the flag that avoids it where one does.
    static func withFlagHint(_ error: OutputError) -> OutputError {
        guard let mapError = error.mapError, mapError.reason == .spriteTooLarge else { return error }
        return OutputError("\(error.message); or pass --no-sprites", mapError: mapError)
    }
}

/// A one-line progress bar for terminals, redrawn at most once per percent.
final class ProgressBar: Sendable {
    private let lastPercent = Mutex(-1)

    func show(_ done: Int, of total: Int) {
        let percent = total == 0 ? 100 : done * 100 / total
        let draw = lastPercent.withLock { last in
            guard percent != last else { return false }
            last = percent
            return true
        }
        guard draw else { return }
        let width = 30
        let filled = percent * width / 100
        let line =
            "\r[" + String(repeating: "#", count: filled) + String(repeating: ".", count: width - filled)
            + "] \(done)/\(total) images"
        Terminal.write(line, to: .output)
    }

    func finish() {
        Terminal.write("\r\u{1B}[K", to: .output)
    }
}
