/// Every marker of a route: a start, a marker at each whole unit and an end for each stage.
public struct MarkerPlan: Sendable {
    /// Metres along each stage of the route, in the route's order.
    public let stageLengths: [Double]
    /// The markers, stage by stage, each stage's in order along it.
    public let markers: [RouteMarker]

    /// A distance marker this close to a stage's end (or, counting across stages, its start) is
    /// left out: the end (start) marker already stands there.
    static let coincidence = 1e-6

    /// Places the markers of `route`, counting in `unit` from each stage's start, or across stages if `cumulative`.
    ///
    /// Start markers always read 0 (the stage starts here). A stage without points gets no markers.
    public init(route: Route, unit: DistanceUnit, cumulative: Bool) {
        var lengths: [Double] = []
        var markers: [RouteMarker] = []
        let everyZoom = Array(ZoomTable.zooms)
        let unitLength = unit.metres
        var before = 0.0  // metres counted before this stage

        for (index, stage) in route.stages.enumerated() {
            let measured = MeasuredStage(stage)
            lengths.append(measured.length)
            guard let first = stage.coordinates.first, let last = stage.coordinates.last else { continue }
            let number = index + 1
            func marker(
                _ kind: RouteMarker.Kind, _ distance: Double, _ coordinate: Coordinate, _ zooms: [Int]
            ) -> RouteMarker {
                RouteMarker(
                    kind: kind, stage: number, stageName: stage.name, distance: distance, unit: unit,
                    coordinate: coordinate, zooms: zooms)
            }

            markers.append(marker(.start, 0, first, everyZoom))
            // The first whole unit past this stage's start; the loop settles the rounding of the division.
            var count = max(1, Int((before / unitLength).rounded(.down)))
            while Double(count) * unitLength - before <= Self.coincidence { count += 1 }
            while true {
                let along = Double(count) * unitLength - before
                guard along < measured.length - Self.coincidence else { break }
                let coordinate = measured.coordinate(atDistance: along)
                markers.append(marker(.distance, Double(count), coordinate, ZoomTable.zooms(forDistance: count)))
                count += 1
            }
            markers.append(marker(.end, (before + measured.length) / unitLength, last, everyZoom))

            if cumulative { before += measured.length }
        }
        stageLengths = lengths
        self.markers = markers
    }
}
