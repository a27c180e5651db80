public import RoutePlacement
public import MarkerSpec

/// What a platform target draws: distinct markers, each in both themes at the target's scales,
/// and for a route where each one goes.
public struct TargetContents: Sendable {
    /// Every distinct picture, in order of first use.
    public let markers: [Marker]
    /// The route's markers, where the target's index places them (the web's); nil for a label set.
    public let placed: [RouteMarker]?

    /// The distinct pictures of `markers`, for a set of labels with no route.
    public init(markers: [Marker]) {
        var seen: Set<Marker> = []
        self.markers = markers.filter { seen.insert($0).inserted }
        placed = nil
    }

    /// Every picture `plan`'s markers show, and where they go.
    public init(plan: MarkerPlan) {
        var seen: Set<Marker> = []
        markers = plan.markers.map(\.marker).filter { seen.insert($0).inserted }
        placed = plan.markers
    }

    /// How many images `target` draws for these markers in `format`: known before any is drawn.
    public func imageCount(for target: PlatformTarget, format: ImageFormat = .png) -> Int {
        markers.count * target.themes.count * target.scales(in: format).count
    }
}
