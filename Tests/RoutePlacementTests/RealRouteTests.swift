import Foundation
import RouteModel
import RouteFormats
import RoutePlacement
import MarkerSpec
import TestSupport
import Testing

/// The shared GPS recordings and the generated fixtures, read by `Route.load` and measured, against
/// geographiclib's numbers from make_reference.py.
@Suite("Routes measured and marked against geographiclib")
struct RealRouteTests {
    /// Per stage: Karney's algorithm agrees with geographiclib to nanometres per segment (GeodesicTests),
    /// so 1 mm leaves room for summing a few hundred segments of rounding and nothing more.
    static let lengthTolerance = 0.001

    @Test(arguments: try Fixtures.reference().routes)
    func stagesAndLengthsMatch(_ expected: Reference.RouteEntry) throws {
        let route = try Route.load(path: Repository.path(expected.path), format: nil)
        #expect(route.stages.map(\.name) == expected.stages.map(\.name))
        #expect(route.stages.map(\.coordinates.count) == expected.stages.map(\.points))
        let plan = try MarkerPlan(route: route, unit: .km, cumulative: false)
        try #require(plan.stageLengths.count == expected.stages.count)
        for (length, stage) in zip(plan.stageLengths, expected.stages) {
            #expect(abs(length - stage.length) < Self.lengthTolerance, "stage \(stage.name ?? "unnamed")")
        }
    }

    /// Every distance marker lies where geographiclib puts the point that far along the route, and
    /// the markers are the reference's but for those reading what their stage's start or end reads.
    @Test(arguments: try Fixtures.reference().routes, Marker.Unit.allCases)
    func markersLieAtTheirDistance(_ expected: Reference.RouteEntry, unit: Marker.Unit) throws {
        let route = try Route.load(path: Repository.path(expected.path), format: nil)
        for cumulative in [false, true] {
            let placed = try MarkerPlan(route: route, unit: unit, cumulative: cumulative).markers.filter { $0.kind == .distance }
            let reference = expected.markers.filter {
                $0.unit == unit && $0.cumulative == cumulative && !Self.readsAsItsStageEnds($0, stages: expected.stages)
            }
            var byPlace: [String: RouteMarker] = [:]
            for marker in placed { byPlace["\(marker.stage)/\(Int(marker.distance))"] = marker }
            for point in reference {
                let marker = try #require(byPlace["\(point.stage)/\(point.distance)"], "stage \(point.stage) at \(point.distance) \(unit)")
                let offset = metresBetween(marker.coordinate, Coordinate(latitude: point.latitude, longitude: point.longitude))
                #expect(offset < 0.001, "stage \(point.stage) at \(point.distance) \(unit), cumulative: \(cumulative)")
            }
            // Where the reference lists only every `sample`th, those are compared; elsewhere all.
            let sample = expected.sample ?? 1
            #expect(placed.filter { Int($0.distance) % sample == 0 }.count == reference.filter { $0.distance % sample == 0 }.count)
        }
    }

    /// Whether a reference marker reads what its stage's start or end reads, from the reference's own lengths.
    static func readsAsItsStageEnds(_ point: Reference.MarkerEntry, stages: [Reference.StageEntry]) -> Bool {
        let index = point.stage - 1
        let before = point.cumulative ? stages[..<index].map(\.length).reduce(0, +) : 0
        let readings = [before, before + stages[index].length].map { Label.number(for: $0 / point.unit.metres) }
        return readings.contains(Label.number(for: Double(point.distance)))
    }

    /// Half the world along the equator: its length is the antipodal geodesic's (over a pole), and the
    /// last marker is the length's whole kilometres along that same geodesic, not along the equator.
    @Test func antipodalStageLengthAndMarkersAgree() throws {
        let route = try Route.load(path: Fixtures.directory.appendingPathComponent("half-the-world.geojson").path, format: nil)
        let plan = try MarkerPlan(route: route, unit: .km, cumulative: false)
        let length = try #require(plan.stageLengths.first)
        #expect(abs(length - 20_003_931.458_625) < 0.001)
        let last = try #require(plan.markers.last { $0.kind == .distance })
        #expect(last.distance == 20_003)
        let end = Coordinate(latitude: 0, longitude: 180)
        #expect(abs(Geodesic.inverse(from: last.coordinate, to: end).distance - 931.458_625) < 0.001)
    }

    @Test func emptyTracksAreDroppedWithAWarning() throws {
        let route = try Route.load(path: Repository.sharedRoutes.appendingPathComponent("korita-zbevnica.gpx").path, format: nil)
        let dropped = try #require(route.warnings.first)
        #expect(route.warnings.count == 1)
        #expect(dropped.contains("track 1") && dropped.contains("03-OCT-10") && dropped.contains("no points"))
    }

    /// Track segments are joined, and the empty one adds nothing.
    @Test func trackWithAnEmptySegmentIsOneStage() throws {
        let route = try Route.load(path: Repository.sharedRoutes.appendingPathComponent("track-with-empty-segment.gpx").path, format: nil)
        #expect(route.stages.count == 1)
        #expect(route.stages.first?.coordinates.count == 9)
        #expect(route.warnings.isEmpty)
    }

    @Test func twoDaysEndAt75And123Kilometres() throws {
        let route = try Route.load(path: Fixtures.directory.appendingPathComponent("two-stages.geojson").path, format: nil)
        let ends = try MarkerPlan(route: route, unit: .km, cumulative: false, combining: false).markers.filter { $0.kind == .end }
        #expect(ends.map(\.stageName) == ["Day 1", "Day 2"])
        try #require(ends.count == 2)
        #expect(abs(ends[0].distance - 75) < 1e-6)
        #expect(abs(ends[1].distance - 123) < 1e-6)
    }

    /// The reference's lengths are what the fixture was built to, so the checks above test real numbers.
    @Test func twoDayFixtureIsBuiltTo75And123Kilometres() throws {
        let entry = try Fixtures.reference().route(endingWith: "two-stages.geojson")
        for stage in entry.stages {
            let nominal = try #require(stage.nominal)
            #expect(abs(stage.length - nominal) < 1e-6)
        }
    }

    @Test func antimeridianCrossingIsKilometresNotTheWorld() throws {
        let route = try Route.load(path: Fixtures.directory.appendingPathComponent("antimeridian.geojson").path, format: nil)
        let plan = try MarkerPlan(route: route, unit: .km, cumulative: false)
        let length = try #require(plan.stageLengths.first)
        #expect(length > 4000 && length < 5000)
        let longitudes = plan.markers.map(\.coordinate.longitude)
        #expect(longitudes.allSatisfy { (-180...180).contains($0) })
        #expect(longitudes.contains { $0 > 179 } && longitudes.contains { $0 < -179 })
    }
}
