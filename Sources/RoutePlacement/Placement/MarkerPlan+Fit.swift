public import MarkerSpec
import RouteModel

extension MarkerPlan {
    /// How round a distance marker's count of intervals must be to claim room before others: the
    /// route's 100s before its 50s, 10s, 5s, 2s and 1s, and past 100, 1000s and 500s before them.
    static let roundnesses = [100_000, 50_000, 10_000, 5_000, 1_000, 500, 100, 50, 10, 5, 2, 1]

    /// Shows `markers` (in route order) from the zooms `ScreenPlacement` gives them north up, and
    /// sets the zoom from which each shows at any bearing, `footprint` measuring each distinct
    /// picture once; `routeStart` and `finalEnd` are the positions of the markers that show the
    /// route's first start and its last end. Distance and countdown markers are counted in their
    /// stage's steps of the interval, so that they show in even steps.
    /// Pins go after the markers that hold a start or an end and before distance markers: each
    /// shows as soon as nothing placed before it is in its way.
    static func place(
        _ markers: inout [RouteMarker], pins: inout [RoutePin], routeStart: Int, finalEnd: Int, interval: MarkerInterval,
        footprint: (Marker) throws(RouteError) -> MarkerFootprint
    ) throws(RouteError) {
        var footprints: [Marker: MarkerFootprint] = [:]
        var candidates: [ScreenPlacement.Candidate] = []
        candidates.reserveCapacity(markers.count)
        for routeMarker in markers {
            let measured: MarkerFootprint
            if let known = footprints[routeMarker.marker] {
                measured = known
            } else {
                measured = try footprint(routeMarker.marker)
                footprints[routeMarker.marker] = measured
            }
            let point = WebMercator.point(routeMarker.coordinate)
            candidates.append(ScreenPlacement.Candidate(x: point.x, y: point.y, footprint: measured, count: count(of: routeMarker, interval: interval)))
        }
        for pin in pins {
            let point = WebMercator.point(pin.coordinate)
            candidates.append(ScreenPlacement.Candidate(x: point.x, y: point.y, footprint: Pin.footprint))
        }
        let order = importanceOrder(markers, pins: pins.count, routeStart: routeStart, finalEnd: finalEnd, interval: interval)
        let minzooms = ScreenPlacement.minzooms(of: candidates, order: order)
        let turned = ScreenPlacement.minzooms(of: candidates, order: order, rotation: .courseUp, notBefore: minzooms)
        for index in markers.indices {
            markers[index].show(from: minzooms[index], turnedFrom: turned[index])
        }
        for index in pins.indices {
            pins[index].show(from: minzooms[markers.count + index], turnedFrom: turned[markers.count + index])
        }
    }

    /// A distance or countdown marker's place in its stage's count: its reading in intervals.
    public static func count(of routeMarker: RouteMarker, interval: MarkerInterval) -> ScreenPlacement.Count? {
        guard routeMarker.kind == .distance || routeMarker.kind == .countdown else { return nil }
        return ScreenPlacement.Count(stage: routeMarker.stage, step: Int((routeMarker.distance * 10 / Double(interval.tenths)).rounded()))
    }

    /// The positions of `markers` and of `pins` pins after them (`markers.count + i`), most important
    /// first: the route's start, then its final end, then every other marker holding a start or an
    /// end, then the pins in their file's order, then distance and countdown markers by how round
    /// their roundest reading is in intervals (`roundnesses`); in route order within each.
    public static func importanceOrder(_ markers: [RouteMarker], pins: Int = 0, routeStart: Int, finalEnd: Int, interval: MarkerInterval) -> [Int] {
        var tiers = [[Int]](repeating: [], count: 4 + roundnesses.count)
        tiers[3] = Array(markers.count..<(markers.count + pins))
        for (position, routeMarker) in markers.enumerated() {
            let tier: Int
            if position == routeStart {
                tier = 0
            } else if position == finalEnd {
                tier = 1
            } else if routeMarker.marker.parts.contains(where: { $0.kind == .start || $0.kind == .end }) {
                tier = 2
            } else {
                let roundest =
                    routeMarker.marker.parts.map { part in
                        let step = Int((part.distance * 10 / Double(interval.tenths)).rounded())
                        return roundnesses.firstIndex { step.isMultiple(of: $0) } ?? roundnesses.count - 1
                    }.min() ?? roundnesses.count - 1
                tier = 4 + roundest
            }
            tiers[tier].append(position)
        }
        return tiers.flatMap { $0 }
    }
}
