import Foundation
import RouteModel
import RouteFormats
import RoutePlacement
import MarkerSpec
import TestSupport
import Testing

@Suite("Marker placement")
struct MarkerPlanTests {
    static func twoDays() throws -> Route {
        try Route.load(path: Fixtures.directory.appendingPathComponent("two-stages.geojson").path, format: nil)
    }

    /// A stage along the equator `metres` long: there the geodesic is the equator and its length is a·Δλ exactly.
    static func equatorStage(metres: Double) -> Stage {
        let degrees = metres / 6_378_137 * 180 / .pi
        return Stage(coordinates: [Coordinate(latitude: 0, longitude: 10), Coordinate(latitude: 0, longitude: 10 + degrees)])
    }

    static func distances(_ markers: [RouteMarker], _ kind: Marker.Kind, stage: Int) -> [Double] {
        markers.filter { $0.kind == kind && $0.stage == stage }.map(\.distance)
    }

    @Test func eachStageStartsAtZeroAndEndsAtItsLength() throws {
        let markers = try MarkerPlan(route: try Self.twoDays(), unit: .km, cumulative: false, combining: false).markers
        #expect(Self.distances(markers, .start, stage: 1) == [0])
        #expect(Self.distances(markers, .start, stage: 2) == [0])
        // The 75 km marker falls on the end point and is left out; the end marker reads 75.
        #expect(Self.distances(markers, .distance, stage: 1) == (1...74).map(Double.init))
        #expect(Self.distances(markers, .distance, stage: 2) == (1...122).map(Double.init))
        #expect(markers.map(\.kind).prefix(3) == [.start, .distance, .distance])
        #expect(markers.filter { $0.stage == 1 }.last?.kind == .end)
    }

    @Test func cumulativeCountsOnAcrossStages() throws {
        let markers = try MarkerPlan(route: try Self.twoDays(), unit: .km, cumulative: true, combining: false).markers
        // The stage starts where 75 km were counted.
        let start = try #require(Self.distances(markers, .start, stage: 2).first)
        #expect(abs(start - 75) < 1e-6)
        #expect(Self.distances(markers, .distance, stage: 1) == (1...74).map(Double.init))
        // 75 is stage 1's end and stage 2's start, so stage 2 counts on from 76.
        #expect(Self.distances(markers, .distance, stage: 2) == (76...197).map(Double.init))
        let ends = Self.distances(markers, .end, stage: 1) + Self.distances(markers, .end, stage: 2)
        try #require(ends.count == 2)
        #expect(abs(ends[0] - 75) < 1e-6)
        #expect(abs(ends[1] - 198) < 1e-6)
    }

    @Test func milesCountInMiles() throws {
        let plan = try MarkerPlan(route: try Self.twoDays(), unit: .mi, cumulative: false, combining: false)
        #expect(Self.distances(plan.markers, .distance, stage: 1) == (1...46).map(Double.init))
        let end = try #require(Self.distances(plan.markers, .end, stage: 1).first)
        #expect(abs(end - 75_000 / 1609.344) < 1e-9)
        #expect(plan.markers.allSatisfy { $0.unit == .mi })
    }

    @Test func nauticalMilesCountInNauticalMiles() throws {
        let plan = try MarkerPlan(route: try Self.twoDays(), unit: .nmi, cumulative: false, combining: false)
        // 75 km is 40.497 nmi, which the end marker reads as `40nmi`: the 40 nmi marker would read the same, and is left out.
        #expect(Self.distances(plan.markers, .distance, stage: 1) == (1...39).map(Double.init))
        let end = try #require(Self.distances(plan.markers, .end, stage: 1).first)
        #expect(abs(end - 75_000 / 1852) < 1e-9)
        #expect(plan.markers.allSatisfy { $0.unit == .nmi && $0.marker.label.hasSuffix("nmi") })
        // The zoom table counts in the route's unit: 10 nmi shows from zoom 11, as 10 km and 10 mi do.
        let ten = try #require(plan.markers.first { $0.kind == .distance && $0.distance == 10 })
        #expect(ten.minzoom == 11)
    }

    @Test(
        "an interval places a marker at each multiple of it, labels its tenths, and scales the zoom table",
        arguments: [("0.5", 149, "74.5km", 11), ("0.1", 749, "74.9km", 5), ("2.5", 29, "72.5km", 15), ("5", 14, "70km", 16)])
    func interval(text: String, count: Int, last: String, fiveUnitsFrom: Int) throws {
        let interval = try MarkerInterval(text)
        let plan = try MarkerPlan(route: try Self.twoDays(), unit: .km, interval: interval, cumulative: false, combining: false)
        let stage = plan.markers.filter { $0.stage == 1 && $0.kind == .distance }
        // Stage 1 is 75 km: its end reads 75km and the marker at 75 is left out.
        #expect(stage.count == count)
        #expect(stage.map(\.distance) == (1...count).map { interval.reading(step: $0) })
        #expect(stage.last?.marker.label == last)
        #expect(plan.interval == interval)
        // The zoom table counts markers: five units is the 50th marker at 0.1 (shown from zoom 5, as
        // 50 km is) and the 10th at 0.5 (from 11, as 10 km is).
        let five = try #require(stage.first { $0.distance == 5 })
        #expect(five.minzoom == fiveUnitsFrom)
        for marker in stage {
            #expect(marker.zooms == ZoomTable.zooms(forStep: Int((marker.distance * 10).rounded()) / interval.tenths))
        }
        let extent = MarkerPlan.Extent(stageLengths: plan.stageLengths, unit: .km, interval: interval, cumulative: false)
        #expect(extent.markers >= plan.markers.count)
    }

    @Test("a countdown reads the distance left to each stage's end, where that much is left, in route order")
    func countdown() throws {
        let forward = try MarkerPlan(route: try Self.twoDays(), unit: .km, cumulative: true, combining: false)
        let plan = try MarkerPlan(route: try Self.twoDays(), unit: .km, countdown: true, cumulative: true, combining: false)
        #expect(plan.countdown)
        // Stage 1 is 75 km: 74 to go down to 1 to go; 75 to go would stand on the start.
        #expect(Self.distances(plan.markers, .countdown, stage: 1) == (1...74).reversed().map(Double.init))
        // Each stage counts down to its own end, counting on or not; starts and ends read as ever.
        #expect(Self.distances(plan.markers, .countdown, stage: 2) == (1...122).reversed().map(Double.init))
        #expect(plan.markers.filter { $0.kind != .countdown }.map(\.marker) == forward.markers.filter { $0.kind != .distance }.map(\.marker))
        #expect(plan.markers.allSatisfy { $0.kind != .distance })
        // 30 to go on a 75 km stage stands where the 45 km marker does.
        let thirtyToGo = try #require(plan.markers.first { $0.stage == 1 && $0.kind == .countdown && $0.distance == 30 })
        let fortyFive = try #require(forward.markers.first { $0.stage == 1 && $0.kind == .distance && $0.distance == 45 })
        #expect(abs(thirtyToGo.coordinate.latitude - fortyFive.coordinate.latitude) < 1e-9)
        #expect(abs(thirtyToGo.coordinate.longitude - fortyFive.coordinate.longitude) < 1e-9)
        #expect(thirtyToGo.minzoom == 7 && thirtyToGo.marker.label == "30km")
        let extent = MarkerPlan.Extent(stageLengths: plan.stageLengths, unit: .km, countdown: true, cumulative: true)
        #expect(extent.markers >= plan.markers.count && extent.distanceLabels == 122)
    }

    @Test("with a tenth in the interval, labels past 10 keep it, and so does the end: 10.5km, not 11km")
    func tenthsPastTen() throws {
        let plan = try MarkerPlan(
            route: Route(stages: [Self.equatorStage(metres: 12_340)]), unit: .km, interval: try MarkerInterval("0.5"), cumulative: false)
        let labels = plan.markers.map(\.marker.label)
        #expect(labels.suffix(6) == ["10km", "10.5km", "11km", "11.5km", "12km", "12.3km"])
        #expect(Set(labels).count == labels.count)
    }

    @Test func startAndEndShowAtEveryZoomAndDistancesByTheTable() throws {
        let markers = try MarkerPlan(route: try Self.twoDays(), unit: .km, cumulative: false).markers
        for marker in markers where marker.kind != .distance {
            #expect(marker.zooms == Array(0...22))
            #expect(marker.minzoom == 0)
        }
        for marker in markers where marker.kind == .distance {
            #expect(marker.zooms == ZoomTable.zooms(forStep: Int(marker.distance)))
            #expect(marker.minzoom == marker.zooms.first)
        }
        let fifty = try #require(markers.first { $0.kind == .distance && $0.distance == 50 })
        #expect(fifty.minzoom == 5)
        #expect(markers.first { $0.kind == .distance && $0.distance == 30 }?.minzoom == 7)
    }

    @Test func namesAndNumbersOfStagesAreCarried() throws {
        let markers = try MarkerPlan(route: try Self.twoDays(), unit: .km, cumulative: false).markers
        #expect(Set(markers.filter { $0.stage == 1 }.map(\.stageName)) == ["Day 1"])
        #expect(Set(markers.filter { $0.stage == 2 }.map(\.stageName)) == ["Day 2"])
    }

    /// No distance marker reads what the end reads: 2 km + 1 cm ends in `2km ⚑` alone, 2.05 km
    /// (`2.1km ⚑`) keeps its 2 km marker.
    @Test(arguments: [
        (2000.0, [1.0]), (2000.0 + 1e-7, [1.0]), (2000.0 - 1e-7, [1.0]), (2000.01, [1.0]), (2049.0, [1.0]), (2051.0, [1.0, 2.0]), (999.0, []),
    ])
    func markerOnTheEndPointIsLeftOut(length: Double, expected: [Double]) throws {
        let route = Route(stages: [Self.equatorStage(metres: length)])
        let plan = try MarkerPlan(route: route, unit: .km, cumulative: false)
        #expect(abs(plan.stageLengths[0] - length) < 1e-8)
        #expect(Self.distances(plan.markers, .distance, stage: 1) == expected)
    }

    /// Repeated points are zero-length segments: they change nothing and never produce NaN.
    @Test func repeatedPointsChangeNothing() throws {
        let route = try Route.load(path: Repository.sharedRoutes.appendingPathComponent("Mojstrovka.gpx").path, format: nil)
        let stage = try #require(route.stages.first)
        let doubled = Stage(name: stage.name, coordinates: stage.coordinates.flatMap { [$0, $0] } + [stage.coordinates.last!])
        let plain = try MarkerPlan(route: route, unit: .km, cumulative: false)
        let repeated = try MarkerPlan(route: Route(stages: [doubled]), unit: .km, cumulative: false)
        #expect(abs(plain.stageLengths[0] - repeated.stageLengths[0]) < 1e-9)
        #expect(repeated.markers.map(\.distance) == plain.markers.map(\.distance))
        for (a, b) in zip(plain.markers, repeated.markers) {
            #expect(a.coordinate.latitude.isFinite && b.coordinate.longitude.isFinite)
            #expect(metresBetween(a.coordinate, b.coordinate) < 1e-6)
        }
    }

    /// Exactly at a repeated point, and on both sides of it, the stage gives finite points on the way.
    @Test func placementAroundARepeatedPoint() {
        let a = Coordinate(latitude: 0, longitude: 0)
        let b = Coordinate(latitude: 0, longitude: 0.01)
        let c = Coordinate(latitude: 0, longitude: 0.02)
        let measured = MeasuredStage(Stage(coordinates: [a, a, b, b, b, c, c]))
        let middle = measured.cumulativeDistances[2]
        #expect(measured.cumulativeDistances[0...1] == [0, 0])
        #expect(measured.coordinate(atDistance: middle) == b)
        for metres in [middle - 1, middle + 1, middle.nextUp, middle.nextDown] {
            let point = measured.coordinate(atDistance: metres)
            #expect(point.latitude.isFinite && point.longitude.isFinite)
            #expect(abs(point.longitude - 0.01) < 2e-5)
        }
    }

    @Test(arguments: [(-5.0, 0), (0, 0), (.nan, 0), (1e9, 2), (.infinity, 2)] as [(Double, Int)])
    func distancesOutsideTheStageAreClamped(metres: Double, index: Int) {
        let points = [
            Coordinate(latitude: 46, longitude: 14), Coordinate(latitude: 46.01, longitude: 14),
            Coordinate(latitude: 46.02, longitude: 14.01),
        ]
        #expect(MeasuredStage(Stage(coordinates: points)).coordinate(atDistance: metres) == points[index])
    }

    /// On a segment tens of kilometres long, interpolating degrees linearly would miss by metres.
    @Test func pointsFollowTheSegmentGeodesic() throws {
        let entry = try Fixtures.reference().route(endingWith: "two-stages.geojson")
        let route = try Self.twoDays()
        let measured = MeasuredStage(route.stages[0])
        for point in entry.markers where point.unit == .km && !point.cumulative && point.stage == 1 {
            let placed = measured.coordinate(atDistance: Double(point.distance) * 1000)
            #expect(metresBetween(placed, Coordinate(latitude: point.latitude, longitude: point.longitude)) < 0.001)
        }
    }

    @Test func emptyStageGetsNoMarkersButKeepsItsNumber() throws {
        let route = Route(stages: [Stage(coordinates: []), Self.equatorStage(metres: 1500)])
        let plan = try MarkerPlan(route: route, unit: .km, cumulative: true)
        #expect(plan.stageLengths.count == 2)
        #expect(plan.stageLengths[0] == 0)
        #expect(plan.markers.map(\.stage) == [2, 2, 2])
        #expect(plan.markers.map(\.kind) == [.start, .distance, .end])
    }
}
