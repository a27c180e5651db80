public import RoutePlacement
public import MarkerSpec

/// The images a route's markers need: one per distinct kind × label × theme × scale, however often used.
public struct RouteImageSet: Sendable {
    public let themes: [Theme]
    public let scales: [MarkerScale]
    /// Every distinct marker image, in a stable order (markers in route order, then theme, then scale).
    public let requests: [MarkerRequest]
    /// Every distinct pin and callout image: the pins in the file's order, then their callouts,
    /// each by theme, then scale.
    public let pictures: [PictureRequest]

    /// Marker, pin and callout images together.
    public var count: Int { requests.count + pictures.count }

    public init(plan: MarkerPlan, themes: [Theme], scales: [MarkerScale]) throws(MapError) {
        guard !themes.isEmpty else { throw MapError(.badChoice, "no theme to draw: give at least one") }
        guard !scales.isEmpty else { throw MapError(.badChoice, "no scale to draw: give at least one of \(MarkerScale.choices)") }
        self.themes = themes
        self.scales = scales
        requests = try Self.distinct(plan.markers.map(\.marker), themes: themes, scales: scales) { (marker, theme, scale) throws(SpecError) in
            try MarkerRequest(marker: marker, theme: theme, scale: scale)
        }
        pictures = try Self.distinct(
            plan.pins.map { MapPicture.pin($0.pin) } + plan.pins.map { MapPicture.callout($0.callout) }, themes: themes, scales: scales
        ) { (picture, theme, scale) throws(SpecError) in try PictureRequest(picture, theme: theme, scale: scale) }
    }

    /// `request` of each of `things` in each theme at each scale, each distinct one once, in that order.
    private static func distinct<Thing, Request: Hashable>(
        _ things: [Thing], themes: [Theme], scales: [MarkerScale], _ request: (Thing, Theme, MarkerScale) throws(SpecError) -> Request
    ) throws(MapError) -> [Request] {
        var seen = Set<Request>()
        var requests: [Request] = []
        for thing in things {
            for theme in themes {
                for scale in scales {
                    let made: Request
                    do { made = try request(thing, theme, scale) } catch { throw MapError(.badChoice, error.description) }
                    if seen.insert(made).inserted { requests.append(made) }
                }
            }
        }
        return requests
    }
}
