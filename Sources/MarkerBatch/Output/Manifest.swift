import Foundation
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

    public static let fileName = "manifest.json"

    func encoded() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
        return try encoder.encode(self)
    }

    /// The manifest in `folder`, if there is a readable one.
    static func read(in folder: String) -> Manifest? {
        guard let data = FileManager.default.contents(atPath: folder + "/" + fileName) else { return nil }
        return try? JSONDecoder().decode(Manifest.self, from: data)
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
