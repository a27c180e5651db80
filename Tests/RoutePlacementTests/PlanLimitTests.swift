import Foundation
import RouteModel
import RouteFormats
import RoutePlacement
import MarkerSpec
import TestSupport
import Testing

/// A plan's size is known from the stage lengths before any marker is made, and a route over the
/// limits is refused at that point, however many markers it would need.
@Suite("Bounding a plan before building it")
struct PlanLimitTests {
    /// A line back and forth between longitude 0 and 179.9 on the equator: 16 KB of GeoJSON whose
    /// 2,000 points are 40 million kilometres of route.
    static let zigzag = Route(stages: [Stage(coordinates: (0..<2000).map { Coordinate(latitude: 0, longitude: $0.isMultiple(of: 2) ? 0 : 179.9) })])

    @Test("the extent worked out from lengths bounds the plan, tightly", arguments: try Fixtures.reference().routes, [false, true])
    func extentBoundsThePlan(_ entry: Reference.RouteEntry, cumulative: Bool) throws {
        let route = try Route.load(path: Repository.path(entry.path), format: nil)
        for unit in Marker.Unit.allCases {
            let separate = try MarkerPlan(route: route, unit: unit, cumulative: cumulative, combining: false)
            let combined = try MarkerPlan(route: route, unit: unit, cumulative: cumulative)
            let extent = MarkerPlan.Extent(stageLengths: separate.stageLengths, unit: unit, cumulative: cumulative)
            // Only distance markers reading what their stage's start or end reads (at most one at
            // each) are left out, and combining only takes markers away.
            #expect(extent.markers >= separate.markers.count)
            #expect(extent.markers - separate.markers.count <= 2 * extent.stages)
            #expect(combined.markers.count <= separate.markers.count)
            #expect(extent.stages == separate.stageLengths.count)
            let readings = Set(separate.markers.filter { $0.kind == .distance }.map(\.distance))
            #expect(extent.distanceLabels >= readings.count)
            #expect(extent.distanceLabels - readings.count <= 2 * extent.stages)
            let longest = separate.markers.filter { $0.kind == .end }.map(\.distance).max() ?? 0
            #expect(extent.longestReading == longest)
        }
    }

    @Test("40 million kilometres of zigzag are refused by count, without placing a marker")
    func zigzagIsRefused() throws {
        let lengths = Self.zigzag.stages.map { MeasuredStage($0).length }
        let extent = MarkerPlan.Extent(stageLengths: lengths, unit: .km, cumulative: false)
        #expect(extent.markers > 39_000_000)
        let limits = MarkerPlan.Limits(maximumMarkers: 200_000, maximumReading: 1e9)
        let error = #expect(throws: RouteError.self) { try MarkerPlan(route: Self.zigzag, unit: .km, cumulative: false, limits: limits) }
        #expect(error?.says(["needs 39,9", "markers, more than the limit of 200,000 per route"]) == true, "\(error?.message ?? "")")
    }

    @Test("a fine interval is counted before any marker: 10,000 km every 0.1 km is refused, every 1 km is not")
    func fineIntervalIsCounted() throws {
        let route = Route(stages: [MarkerPlanTests.equatorStage(metres: 10_000_000)])
        let tenth = try MarkerInterval("0.1")
        let extent = MarkerPlan.Extent(stageLengths: [10_000_000], unit: .km, interval: tenth, cumulative: false)
        #expect(extent.markers == 2 + 99_999)
        let error = #expect(throws: RouteError.self) {
            try MarkerPlan(route: route, unit: .km, interval: tenth, cumulative: false, limits: .init(maximumMarkers: 50_000, maximumReading: 1e5))
        }
        #expect(error?.says(["needs 100,001 markers, more than the limit of 50,000"]) == true, "\(error?.message ?? "")")
        #expect(
            try MarkerPlan(route: route, unit: .km, cumulative: false, limits: .init(maximumMarkers: 50_000, maximumReading: 1e5)).markers.count
                == 10_001)
    }

    @Test("a reading no marker can show is refused, naming the stage")
    func readingBeyondWhatAMarkerShows() throws {
        let short = Stage(coordinates: [Coordinate(latitude: 46, longitude: 14), Coordinate(latitude: 46.1, longitude: 14)])
        let route = Route(stages: [short, Self.zigzag.stages[0]])
        let error = #expect(throws: RouteError.self) { try MarkerPlan(route: route, unit: .km, cumulative: false) }
        #expect(error?.says(["stage 2 would end at 39,9", "km, more than a marker can show (100,000 km)"]) == true, "\(error?.message ?? "")")
    }

    @Test("the limits are inclusive")
    func limitIsInclusive() throws {
        let stage = Stage(coordinates: [Coordinate(latitude: 0, longitude: 0), Coordinate(latitude: 0, longitude: 0.05)])
        let route = Route(stages: [stage])
        let needed = try MarkerPlan(route: route, unit: .km, cumulative: false).markers.count
        #expect(needed == 7)
        _ = try MarkerPlan(route: route, unit: .km, cumulative: false, limits: .init(maximumMarkers: needed, maximumReading: 100))
        #expect(throws: RouteError.self) {
            try MarkerPlan(route: route, unit: .km, cumulative: false, limits: .init(maximumMarkers: needed - 1, maximumReading: 100))
        }
    }

    /// The whole units past the start and short of the end, each by more than a micrometre.
    @Test(
        arguments: [
            (0.0, 2000.0, 1..<2), (0, 2000.000_002, 1..<3), (0, 999.0, 1..<1), (0, 0, 1..<1),
            (1500, 1000, 2..<3), (2000, 1000, 3..<3), (1999.999_999_5, 1000, 3..<3), (1000, 2500, 2..<4),
        ] as [(Double, Double, Range<Int>)])
    func distanceCounts(before: Double, length: Double, expected: Range<Int>) {
        let counts = MarkerPlan.Extent(stageLengths: [before, length], unit: .km, cumulative: true)
        let first = MarkerPlan.Extent(stageLengths: [before], unit: .km, cumulative: true)
        #expect(counts.distanceLabels - first.distanceLabels == expected.count)
    }
}
