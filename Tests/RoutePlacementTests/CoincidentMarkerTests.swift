import Foundation
import RouteModel
import RouteFormats
import RoutePlacement
import MarkerSpec
import TestSupport
import Testing

@Suite("Markers that meet")
struct CoincidentMarkerTests {
    /// Every real recording, in every unit, counting per stage and on.
    static let plans: [(route: String, unit: Marker.Unit, cumulative: Bool)] = {
        let routes = (try? FileManager.default.contentsOfDirectory(atPath: Repository.sharedRoutes.path)) ?? []
        return routes.filter { $0.hasSuffix(".gpx") }.sorted().flatMap { route in
            Marker.Unit.allCases.flatMap { unit in [false, true].map { (route, unit, $0) } }
        }
    }()

    static func plan(_ route: String, unit: Marker.Unit = .km, cumulative: Bool = false, combining: Bool = true) throws -> MarkerPlan {
        try MarkerPlan(
            route: try Route.load(path: Repository.sharedRoute(route), format: nil), unit: unit, cumulative: cumulative,
            combining: combining)
    }

    @Test("the real tracks are all here") func tracksFound() {
        #expect(Self.plans.count == 5 * Marker.Unit.allCases.count * 2)
    }

    @Test("no two markers show at one zoom within 5 m of each other", arguments: plans)
    func noStackedMarkers(route: String, unit: Marker.Unit, cumulative: Bool) throws {
        let markers = try Self.plan(route, unit: unit, cumulative: cumulative).markers
        for (index, first) in markers.enumerated() {
            for second in markers[(index + 1)...] where !Set(first.zooms).isDisjoint(with: second.zooms) {
                let apart = Geodesic.inverse(from: first.coordinate, to: second.coordinate).distance
                #expect(
                    apart > 5, "\(first.marker.label) (stage \(first.stage)) and \(second.marker.label) (stage \(second.stage)) are \(apart) m apart")
            }
        }
    }

    @Test("no distance marker reads what its stage's start or end reads", arguments: plans)
    func noDistanceMarkerRepeatsAnEnd(route: String, unit: Marker.Unit, cumulative: Bool) throws {
        let separate = try Self.plan(route, unit: unit, cumulative: cumulative, combining: false).markers
        for stage in Set(separate.map(\.stage)) {
            let own = separate.filter { $0.stage == stage }
            let ends = Set(own.filter { $0.kind != .distance }.map(\.marker.number))
            for marker in own where marker.kind == .distance {
                #expect(!ends.contains(marker.marker.number), "stage \(stage): \(marker.marker.label)")
            }
        }
        // Combining touches only starts and ends.
        let combined = try Self.plan(route, unit: unit, cumulative: cumulative).markers
        #expect(combined.filter { $0.kind == .distance } == separate.filter { $0.kind == .distance })
    }

    @Test("counting on, each stage's start reads the distance before it", arguments: plans.filter(\.cumulative))
    func cumulativeStartsReadTheTotal(route: String, unit: Marker.Unit, cumulative: Bool) throws {
        let plan = try Self.plan(route, unit: unit, cumulative: true, combining: false)
        let starts = plan.markers.filter { $0.kind == .start }
        try #require(starts.count == plan.stageLengths.count)
        var before = 0.0
        for (start, length) in zip(starts, plan.stageLengths) {
            #expect(start.distance == before / unit.metres)
            #expect(start.marker.number == Label.number(for: before / unit.metres))
            before += length
        }
    }

    @Test("every start and every end is shown, alone or in a combined marker", arguments: plans)
    func nothingLost(route: String, unit: Marker.Unit, cumulative: Bool) throws {
        let separate = try Self.plan(route, unit: unit, cumulative: cumulative, combining: false).markers
        let combined = try Self.plan(route, unit: unit, cumulative: cumulative).markers
        // A combined marker stands where its first part was, so compare as sets of (kind, reading).
        func readings(_ markers: [RouteMarker]) -> [String] {
            markers.filter { $0.kind != .distance }.flatMap(\.marker.parts).map { "\($0.kind) \($0.distance)" }.sorted()
        }
        #expect(readings(combined) == readings(separate))
        for marker in combined where marker.kind == .combined {
            #expect((2...Marker.maximumParts).contains(marker.marker.parts.count))
            #expect(marker.zooms == Array(0...22))
        }
    }

    @Test("a loop is one marker at its start: `0km ▶ | 6.7km ⚑`")
    func loopIsOneMarker() throws {
        let markers = try Self.plan("route.gpx").markers
        let ends = markers.filter { $0.kind != .distance }
        try #require(ends.count == 1)
        #expect(ends[0].kind == .combined)
        #expect(ends[0].marker.label == "start0km_end6.7km")
        let route = try Route.load(path: Repository.sharedRoute("route.gpx"), format: nil)
        #expect(ends[0].coordinate == route.stages[0].coordinates.first)
    }

    @Test("where one stage ends and the next starts, one marker; counting on, one reading with both icons")
    func stageBoundary() throws {
        let restarting = try Self.plan("korita-zbevnica.gpx").markers.filter { $0.kind == .combined }.map(\.marker.label)
        // Stage 1 is a loop; stage 2 ends where stage 3 starts; stage 3 comes back to stage 2's start.
        #expect(restarting == ["start0km_end8.6km", "start0km_end4km", "end2.3km_start0km"])
        let countingOn = try Self.plan("korita-zbevnica.gpx", cumulative: true).markers.filter { $0.kind == .combined }
        #expect(countingOn.map(\.marker.label) == ["start0km_end8.6km", "start8.6km_end15km", "end11km_start11km"])
    }

    @Test("a distance marker is left out where the end would read the same: 24.04 km ends in `24km ⚑` only")
    func noDistanceMarkerBesideTheEnd() throws {
        let route = Route(stages: [MarkerPlanTests.equatorStage(metres: 24_040)])
        let markers = try MarkerPlan(route: route, unit: .km, cumulative: false).markers
        #expect(markers.filter { $0.kind == .distance }.map(\.distance) == (1...23).map(Double.init))
        #expect(markers.last?.marker.label == "24km")
    }

    @Test("a base many stages start and end at gives markers of at most 6 parts, found with bounded work")
    func manyStagesAtOnePlace() throws {
        let spot = Stage(coordinates: [Coordinate(latitude: 46, longitude: 14), Coordinate(latitude: 46.0001, longitude: 14)])
        let markers = try MarkerPlan(route: Route(stages: Array(repeating: spot, count: 10_000)), unit: .km, cumulative: false).markers
        #expect(markers.allSatisfy { $0.kind == .combined && $0.marker.parts.count <= Marker.maximumParts })
        #expect(markers.flatMap(\.marker.parts).count == 20_000)
    }
}
