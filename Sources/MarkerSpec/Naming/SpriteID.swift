/// An image's id in sprites and GeoJSON: what it shows and a hash of its pictures at every scale,
/// so the id of a changed picture is always new (Mapbox keeps showing an old image re-added under its name).
public struct SpriteID: Sendable, Hashable, Comparable, CustomStringConvertible {
    public let value: String

    /// `end-123km-night-<10 hex>` from the SHA-256 of the image's PNGs at each scale, in scale order.
    public init(marker: Marker, theme: Theme, sha256ByScale: [Int: String]) {
        let joined = sha256ByScale.sorted { $0.key < $1.key }.map { "\($0.key):\($0.value)" }.joined(separator: ",")
        value = "\(marker.kind.rawValue)-\(marker.label)-\(theme.name)-\(ContentHash.sha256Hex(Array(joined.utf8)).prefix(10))"
    }

    public var description: String { value }
    public static func < (lhs: SpriteID, rhs: SpriteID) -> Bool { lhs.value < rhs.value }
}
