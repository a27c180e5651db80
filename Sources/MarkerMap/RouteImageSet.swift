public import RoutePlacement
public import MarkerSpec

/// The images a route's markers need: one per distinct kind × label × theme × scale, however often used.
public struct RouteImageSet: Sendable {
    public let themes: [Theme]
    public let scales: [MarkerScale]
    /// Every distinct image, in a stable order (markers in route order, then theme, then scale).
    public let requests: [MarkerRequest]

    public init(plan: MarkerPlan, themes: [Theme], scales: [MarkerScale]) throws(MapError) {
        guard !themes.isEmpty else { throw MapError(.badChoice, "no theme to draw: give at least one") }
        guard !scales.isEmpty else { throw MapError(.badChoice, "no scale to draw: give at least one of \(MarkerScale.choices)") }
        self.themes = themes
        self.scales = scales
        var seen = Set<MarkerRequest>()
        var requests: [MarkerRequest] = []
        for routeMarker in plan.markers {
            for theme in themes {
                for scale in scales {
                    let request: MarkerRequest
                    do {
                        request = try MarkerRequest(marker: routeMarker.marker, theme: theme, scale: scale)
                    } catch {
                        throw MapError(.badChoice, error.description)
                    }
                    if seen.insert(request).inserted { requests.append(request) }
                }
            }
        }
        self.requests = requests
    }
}
