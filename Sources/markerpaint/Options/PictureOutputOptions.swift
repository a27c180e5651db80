import ArgumentParser
import MarkerFiles
import MarkerSpec
import SystemPackage

/// Where a pin or a callout is written, in what format, and what is printed: as for a marker.
struct PictureOutputOptions: ParsableArguments {
    @Option(help: ArgumentHelp("Folder to write the image into; made, with its parents, if missing.", valueName: "dir"))
    var out = "."

    @Option(help: "File format: png, or the same drawing as svg or pdf.")
    var format: ImageFormat = .png

    @Flag(help: "Print one JSON object (name, path, width, height, scale, anchor, sha256) instead of the path.")
    var json = false

    func validate() throws {
        guard !out.isEmpty else { throw ValidationError("--out is empty; name the folder to write into") }
    }

    /// Writes `bytes` under `image`'s name and prints its path, or its JSON description.
    func write(_ bytes: [UInt8], as image: PictureImage) throws {
        let path = try Folder.create(FilePath(out)).write(bytes, as: image.fileName)
        print(json ? try WrittenMarker(picture: image, path: path.string).jsonLine() : path.string)
    }
}
