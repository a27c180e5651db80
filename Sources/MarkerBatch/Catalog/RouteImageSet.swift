import MarkerRender
import MarkerRoute

/// The images a route's markers need: one per distinct kind × label × theme × scale, however often used.
public struct RouteImageSet: Sendable {
    public let themes: [Theme]
    public let scales: [Int]
    /// Every distinct image, in a stable order (markers in route order, then theme, then scale).
    public let requests: [MarkerRequest]

    public init(plan: MarkerPlan, themes: [Theme], scales: [Int]) throws(RenderError) {
        guard !themes.isEmpty else { throw RenderError("no theme to draw: give at least one") }
        guard !scales.isEmpty else { throw RenderError("no scale to draw: give at least one of 1, 2, 3") }
        self.themes = themes
        self.scales = scales
        var seen = Set<MarkerRequest>()
        var requests: [MarkerRequest] = []
        for routeMarker in plan.markers {
            let marker = try Self.marker(for: routeMarker)
            for theme in themes {
                for scale in scales {
                    let request = try MarkerRequest(marker: marker, theme: theme, scale: scale)
                    if seen.insert(request).inserted { requests.append(request) }
                }
            }
        }
        self.requests = requests
    }

    /// What a placed marker says, as the renderer draws it.
    public static func marker(for routeMarker: RouteMarker) throws(RenderError) -> Marker {
        let kind: Marker.Kind = switch routeMarker.kind {
        case .start: .start
        case .distance: .distance
        case .end: .end
        }
        let unit: Marker.Unit = routeMarker.unit == .mi ? .mi : .km
        do {
            return try Marker(kind: kind, distance: kind == .start ? 0 : routeMarker.distance, unit: unit)
        } catch {
            throw RenderError("stage \(routeMarker.stage): \(error.message)")
        }
    }
}

/// An image's id in sprites and GeoJSON: what it shows and a hash of its pictures at every scale,
/// so the id of a changed picture is always new (Mapbox keeps showing an old image re-added under its name).
public struct SpriteID: Sendable, Hashable, Comparable, CustomStringConvertible {
    public let value: String

    /// `end-123km-night-<10 hex>` from the SHA-256 of the image's PNGs at each scale, in scale order.
    public init(marker: Marker, theme: Theme, sha256ByScale: [Int: String]) {
        let joined = sha256ByScale.keys.sorted().map { "\($0):\(sha256ByScale[$0]!)" }.joined(separator: ",")
        value = "\(marker.kind.rawValue)-\(marker.label)-\(theme.name)-\(ContentHash.sha256Hex(Array(joined.utf8)).prefix(10))"
    }

    public var description: String { value }
    public static func < (lhs: SpriteID, rhs: SpriteID) -> Bool { lhs.value < rhs.value }
}
