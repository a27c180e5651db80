import ArgumentParser
import MarkerOutput
import MarkerRender
import MarkerSpec
import MarkerPNG
import SystemPackage

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A set of labels, with no route, for an app's platform: `markerpaint set --labels 0-200 --target ios`.
struct SetCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "set",
        abstract: "Draw a list of labels for an app: an iOS asset catalog, Android resources, or SVGs for the web.",
        discussion: """
            Examples:
              markerpaint set --labels 0-200 --target ios --out Markers         # Markers/Markers.xcassets
              markerpaint set --labels 0-100 --target android --out app-markers # app-markers/res/drawable-*
              markerpaint set --labels 0-50 --interval 0.5 --locale de --target web --out site
            Each label is drawn in the day theme and, as its dark variant, the night theme, at every
            scale the platform uses. --out may hold anything else: markerpaint writes only its target
            folder (Markers.xcassets, res or web) and markerpaint-<target>.json beside it, and replaces
            that folder only if it wrote it.
            """
    )

    @Option(help: ArgumentHelp("Readings and ranges, e.g. 0-200 or 0-10,15,20-50; a range steps by --interval.", valueName: "list"))
    var labels: String

    @Option(help: "Platform: ios (asset catalog), android (res/drawable-*), web (SVGs and markers.json).")
    var target: PlatformTarget

    @Option(help: "File format: png (ios, android), pdf (ios: one vector PDF per theme), svg (web).")
    var format: ImageFormat?

    @Option(help: ArgumentHelp("Folder to write the target into, made if missing.", valueName: "dir"))
    var out: String

    @Option(help: "Kind of marker: distance, start, end or countdown.")
    var kind: Marker.Kind = .distance

    @OptionGroup var reading: LabelOptions

    func validate() throws {
        guard target != .maplibre else {
            throw ValidationError("--target maplibre is a route's sprites and GeoJSON: use markerpaint route; set writes ios, android or web")
        }
        if let format, let refusal = target.refusal(of: format) { throw ValidationError("--format \(format.rawValue): \(refusal)") }
        guard kind != .combined else {
            throw ValidationError("--kind combined is drawn where a route's stages meet; give distance, start, end or countdown")
        }
        guard !out.isEmpty else { throw ValidationError("--out is empty; name the folder to write") }
        _ = try markers()
    }

    /// Every label's marker, checked.
    func markers() throws -> [Marker] {
        let interval = try reading.parsedInterval()
        let mark = try reading.parsedLocale().decimalMark
        let unit = reading.unit
        do {
            return try LabelList(labels, interval: interval).readings.map { (distance) throws(SpecError) in
                try Marker(kind: kind, distance: distance, unit: unit, mark: mark, precision: interval.precision)
            }
        } catch {
            throw error.validationError
        }
    }

    func run() async throws {
        let pool = try await RouteBatch.renderers(threads: ProcessInfo.processInfo.activeProcessorCount, compression: PNGEncoder.defaultCompression)
            .get()
        defer { pool.shutdown() }
        let summary = try await PlatformBundle.write(
            TargetContents(markers: try markers()), target: target, format: format, unit: reading.unit, to: FilePath(out), pool: pool)
        print("\(summary.root): \(summary.pictures) markers, \(summary.images) images")
    }
}
