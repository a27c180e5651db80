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
        var seenPictures = Set<PictureRequest>()
        var pictures: [PictureRequest] = []
        for picture in plan.pins.map({ MapPicture.pin($0.pin) }) + plan.pins.map({ MapPicture.callout($0.callout) }) {
            for theme in themes {
                for scale in scales {
                    let request: PictureRequest
                    do {
                        request = try PictureRequest(picture, theme: theme, scale: scale)
                    } catch {
                        throw MapError(.badChoice, error.description)
                    }
                    if seenPictures.insert(request).inserted { pictures.append(request) }
                }
            }
        }
        self.pictures = pictures
    }
}
