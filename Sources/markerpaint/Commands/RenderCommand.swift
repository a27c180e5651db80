import ArgumentParser
import MarkerFiles
import MarkerRender
import MarkerSpec
import MarkerPNG
import SystemPackage

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Draws one marker into a folder and says where it is.
struct RenderCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "render",
        abstract: "Draw one marker (the default subcommand).",
        discussion: """
            Examples:
              markerpaint --distance 123 --end --dark      # ./end-123km-night@2x-<hash>.png
              markerpaint --start --scale 3 --out icons    # icons/start-0km-day@3x-<hash>.png
              markerpaint --distance 7.5 --unit mi --json  # one JSON object with size and anchor
              markerpaint --distance 42 --format svg       # ./distance-42km-day@2x-<hash>.svg
            The file name carries a hash of the PNG's bytes, so a changed picture never reuses a name.
            """
    )

    @OptionGroup var marker: MarkerOptions
    @OptionGroup var look: LookOptions

    @Option(help: ArgumentHelp("Folder to write the PNG into; made, with its parents, if missing.", valueName: "dir"))
    var out = "."

    @Flag(help: "Smallest PNG: libdeflate's level 12 instead of 1 (a few ms instead of tens of µs).")
    var small = false

    @Option(help: "File format: png, or the same drawing as svg or pdf (paths and glyph outlines, the shadow an embedded image).")
    var format: ImageFormat = .png

    @Flag(help: "Print one JSON object (name, path, width, height, scale, anchor, sha256) instead of the path.")
    var json = false

    func validate() throws {
        guard !out.isEmpty else { throw ValidationError("--out is empty; name the folder to write into") }
        if small && format != .png { throw ValidationError("--small makes PNGs smaller; leave it out with --format \(format.rawValue)") }
    }

    func run() throws {
        let request: MarkerRequest
        do {
            request = try MarkerRequest(marker: marker.makeMarker(), theme: look.makeTheme(), scale: look.pixelScale())
        } catch let error as SpecError {
            throw error.validationError
        }
        let renderer = try MarkerRenderer(compression: small ? PNGEncoder.smallCompression : PNGEncoder.defaultCompression)
        let (image, bytes) = try renderer.renderFile(request, format: format)
        let path = try Folder.create(FilePath(out)).write(bytes, as: image.fileName)
        if json {
            print(try WrittenMarker(image: image, path: path.string).jsonLine())
        } else {
            print(path)
        }
    }
}

/// The `--json` description of a written image (a marker or a pin): its record and where it was written.
struct WrittenMarker: Encodable {
    let name: String
    let path: String
    let width: Int
    let height: Int
    let scale: Double
    let anchor: PixelPoint
    let sha256: String

    init(image: MarkerImage, path: String) {
        (name, width, height, scale, anchor, sha256) = (image.fileName, image.width, image.height, image.request.scale.factor, image.anchor, image.sha256)
        self.path = path
    }

    init(picture image: PictureImage, path: String) {
        (name, width, height, scale, anchor, sha256) = (image.fileName, image.width, image.height, image.scale.factor, image.anchor, image.sha256)
        self.path = path
    }

    func jsonLine() throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(self), as: UTF8.self)
    }
}
