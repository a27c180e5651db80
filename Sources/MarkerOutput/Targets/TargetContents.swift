public import RoutePlacement
public import MarkerSpec

/// What a platform target draws: distinct markers, and a route's pins and callouts, each in both
/// themes at the target's scales, and for a route where each one goes.
public struct TargetContents: Sendable {
    /// Every distinct picture, in order of first use.
    public let markers: [Marker]
    /// The route's markers, where the target's index places them (the web's); nil for a label set.
    public let placed: [RouteMarker]?
    /// The route's waypoints, each a pin with its callout; empty for a label set.
    public let pins: [RoutePin]
    /// Every distinct pin and callout, pins first, each with the name the target files it under.
    let pictures: [(picture: MapPicture, name: String)]

    /// The distinct pictures of `markers`, for a set of labels with no route.
    public init(markers: [Marker]) {
        var seen: Set<Marker> = []
        self.markers = markers.filter { seen.insert($0).inserted }
        placed = nil
        pins = []
        pictures = []
    }

    /// Every picture `plan`'s markers and pins show, and where they go.
    public init(plan: MarkerPlan) {
        var seen: Set<Marker> = []
        markers = plan.markers.map(\.marker).filter { seen.insert($0).inserted }
        placed = plan.markers
        pins = plan.pins
        pictures = Self.named(plan.pins.map { MapPicture.pin($0.pin) } + plan.pins.map { MapPicture.callout($0.callout) })
    }

    /// How many images `target` draws for these markers in `format`: known before any is drawn.
    public func imageCount(for target: PlatformTarget, format: ImageFormat = .png) -> Int {
        (markers.count + pictures.count) * target.themes.count * target.scales(in: format).count
    }

    /// The name a target files `picture` under.
    func name(of picture: MapPicture) -> String? { pictures.first { $0.picture == picture }?.name }

    /// Each distinct picture once, named by what it shows (`pin-water`, `callout-spring`); a
    /// second picture that would share a name gets its number after it (`pin-water-2`), in order.
    static func named(_ pictures: [MapPicture]) -> [(picture: MapPicture, name: String)] {
        var seen: Set<MapPicture> = []
        var used: [String: Int] = [:]
        var named: [(picture: MapPicture, name: String)] = []
        for picture in pictures where seen.insert(picture).inserted {
            let label = picture.label
            let count = (used[label] ?? 0) + 1
            used[label] = count
            named.append((picture, count == 1 ? label : "\(label)-\(count)"))
        }
        return named
    }
}
