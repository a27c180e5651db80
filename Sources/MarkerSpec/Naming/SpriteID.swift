/// An image's id in sprites and GeoJSON: what it shows and a hash of its pictures at every scale,
/// so the id of a changed picture is always new (Mapbox keeps showing an old image re-added under its name).
public struct SpriteID: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The scales the service's ids hash: every scale it draws for a map (the pixel ratios MapLibre
    /// and Mapbox ask for on web, iOS and Android alike), so an id names its picture at each of them
    /// and an icon URL built from it at any ratio can be checked by drawing again. Not 4: drawing
    /// it for every route would double a route's work for a ratio no map SDK requests.
    public static let everyScale: [MarkerScale] = [1, 2, 3]

    public let value: String

    /// `end-123km-night-<10 hex>` from the SHA-256 of the image's PNGs at each scale, in scale order.
    public init(marker: Marker, theme: Theme, sha256ByScale: [MarkerScale: String]) {
        self.init(label: "\(marker.kind.rawValue)-\(marker.label)", theme: theme, sha256ByScale: sha256ByScale)
    }

    /// `pin-water-night-<10 hex>` or `callout-water-stop-day-<10 hex>`, hashed as a marker's.
    public init(picture: MapPicture, theme: Theme, sha256ByScale: [MarkerScale: String]) {
        self.init(label: picture.label, theme: theme, sha256ByScale: sha256ByScale)
    }

    private init(label: String, theme: Theme, sha256ByScale: [MarkerScale: String]) {
        let joined = sha256ByScale.sorted { $0.key < $1.key }.map { "\($0.key):\($0.value)" }.joined(separator: ",")
        value = "\(label)-\(theme.name)-\(ContentHash.sha256Hex(Array(joined.utf8)).prefix(ImageName.hashLength))"
    }

    /// Reads an id back into the picture it names (only built-in themes, canonical spelling), or nil.
    /// Whether the hash is right is for the caller to check, by drawing the picture again.
    public static func parse(_ text: Substring) -> (marker: Marker, theme: Theme)? {
        guard let hashDash = text.lastIndex(of: "-"), ImageName.isHashPrefix(text[text.index(after: hashDash)...]) else { return nil }
        return ImageName.picture(text[..<hashDash])
    }

    public var description: String { value }
    public static func < (lhs: SpriteID, rhs: SpriteID) -> Bool { lhs.value < rhs.value }
}
