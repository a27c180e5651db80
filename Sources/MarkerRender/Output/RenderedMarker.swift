
/// A finished marker image: its PNG bytes and everything a map needs to place it.
public struct RenderedMarker: Sendable {
    public let request: MarkerRequest
    public let png: [UInt8]
    public let width: Int
    public let height: Int
    /// The dot's centre in pixels: the point that goes on the route.
    public let anchor: PixelPoint
    /// Lowercase hex SHA-256 of `png`.
    public let sha256: String

    public init(request: MarkerRequest, png: [UInt8], width: Int, height: Int, anchor: PixelPoint) {
        self.request = request
        self.png = png
        self.width = width
        self.height = height
        self.anchor = anchor
        self.sha256 = ContentHash.sha256Hex(png)
    }

    /// `end-123km-night@2x-3f9a1c2b7d.png`: what it shows and a hash of its bytes, so a new
    /// picture never reuses an old name.
    public var fileName: String { ImageName(request: request, sha256: sha256).fileName }
}

/// A content-hashed image name, made and parsed.
public struct ImageName: Sendable, Hashable {
    /// How many hex digits of the SHA-256 a name carries.
    public static let hashLength = 10

    public let request: MarkerRequest
    public let hashPrefix: String

    public init(request: MarkerRequest, sha256: String) {
        self.request = request
        self.hashPrefix = String(sha256.prefix(Self.hashLength))
    }

    public var stem: String { "\(request.baseName)-\(hashPrefix)" }
    public var fileName: String { stem + ".png" }

    /// Reads a name back into what to draw, e.g. `end-123km-night@2x-3f9a1c2b7d` (with or without
    /// `.png`); only built-in themes can be read, since a custom palette's colours are not in its name.
    public static func parse(_ name: String) -> ImageName? {
        let stem = name.hasSuffix(".png") ? String(name.dropLast(4)) : name
        guard let match = stem.wholeMatch(of: /(start|distance|end)-([0-9]+(?:\.[0-9])?)(km|mi)-([a-z0-9-]+)@([1-3])x-([0-9a-f]{10})/),
              let kind = Marker.Kind(rawValue: String(match.1)),
              let distance = Double(match.2),
              let unit = Marker.Unit(rawValue: String(match.3)),
              let theme = Theme.named(String(match.4)),
              let scale = Int(match.5),
              let marker = try? Marker(kind: kind, distance: distance, unit: unit),
              marker.number == String(match.2),
              let request = try? MarkerRequest(marker: marker, theme: theme, scale: scale)
        else { return nil }
        return ImageName(request: request, sha256: String(match.6))
    }
}
