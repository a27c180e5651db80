import Foundation
import MarkerFiles
import MarkerRender

/// `manifest.json`: the stages and every image of a batch, and what a later run may reuse.
public struct Manifest: Codable, Sendable {
    public struct Stage: Codable, Sendable {
        public var stage: Int
        public var name: String?
        /// In the batch's unit.
        public var length: Double
        public var lengthMetres: Double

        enum CodingKeys: String, CodingKey {
            case stage, name, length
            case lengthMetres = "length_m"
        }
    }

    public struct Image: Codable, Sendable {
        public var name: String
        public var file: String
        public var sprite: String
        public var kind: String
        public var label: String
        public var theme: String
        public var scale: Int
        public var width: Int
        public var height: Int
        public var anchor: PixelPoint
        public var sha256: String
        /// Identifies what was drawn (including a custom palette's colours), for reuse.
        public var key: String
    }

    public struct Sprite: Codable, Sendable {
        public var theme: String
        public var pixelRatio: Int
        public var png: String
        public var json: String
    }

    public var generator = "markerpaint"
    /// Changes whenever the drawing changes; images are reused only under the same fingerprint.
    public var renderer: String
    public var unit: String
    public var cumulative: Bool
    public var stages: [Stage]
    public var images: [Image]
    public var sprites: [Sprite]
    /// Every file of the batch but the manifest itself, with its SHA-256: what a later run may
    /// replace or remove (absent in manifests written before it was recorded).
    public var files: [String: String]?

    public static let fileName = "manifest.json"

    func encoded() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
        return try encoder.encode(self)
    }

    /// The files this manifest says markerpaint wrote, with their SHA-256 where it recorded one.
    var recordedFiles: [String: String?] {
        if let files { return files.mapValues { $0 } }
        // Manifests before `files`: the images (hashed), sprites and map data they name.
        var recorded: [String: String?] = [:]
        for image in images { recorded[image.file] = image.sha256 }
        for sprite in sprites {
            recorded[sprite.png] = String?.none
            recorded[sprite.json] = String?.none
        }
        recorded["markers.geojson"] = String?.none
        recorded["style-layer.json"] = String?.none
        for image in images { recorded["style-layer-\(image.theme).json"] = String?.none }
        return recorded
    }

    /// The manifest in `folder`, or nil if there is none or it is not one of markerpaint's
    /// (another program's manifest.json is then a file markerpaint did not write).
    static func read(in folder: Folder) throws(FileError) -> Manifest? {
        guard let bytes = try folder.contents(of: fileName, limit: RouteOutput.maximumOwnFileBytes),
              let manifest = try? JSONDecoder().decode(Manifest.self, from: Data(bytes)),
              manifest.generator == "markerpaint"
        else { return nil }
        return manifest
    }
}

extension MarkerRequest {
    /// What was drawn, exactly: the readable name plus the palette's colours (a palette's name alone
    /// could be reused for other colours).
    var reuseKey: String {
        let p = theme.palette
        let colours = [p.pillFill, p.pillBorder, p.label, p.dotFill, p.dotBorder, p.shadow]
            .map { "\($0.red),\($0.green),\($0.blue),\($0.alpha)" }.joined(separator: ";")
        return "\(baseName)|\(colours)"
    }
}

/// A fingerprint of the renderer as it draws now: probe images at each theme and scale, hashed.
/// Any change to drawing, fonts or encoding changes it, so old images are never reused for a new look.
enum RendererFingerprint {
    static func current(themes: [Theme], scales: [Int]) throws(RenderError) -> String {
        let renderer = try MarkerRenderer()
        var hashes: [String] = []
        for theme in themes {
            for scale in scales {
                for (kind, distance) in [(Marker.Kind.end, 12_345.0), (.start, 0), (.distance, 7.5)] {
                    let request = try MarkerRequest(marker: Marker(kind: kind, distance: distance), theme: theme, scale: scale)
                    hashes.append(try renderer.render(request).sha256)
                }
            }
        }
        return String(ContentHash.sha256Hex(Array(hashes.joined(separator: ",").utf8)).prefix(16))
    }
}
