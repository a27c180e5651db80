import Foundation
import MarkerOutput
import RouteModel
import RouteFormats
import RoutePlacement
import MarkerSpec
import SystemPackage
import TestSupport
import Testing

/// The map the markers make, at every zoom 0-22, checked from the written files (`WrittenMap`):
/// no two pictures over each other, each marker shown from one zoom on, the most important first,
/// none hidden where there is room, every reading shown at zoom 22.
@Suite("A map that never piles up")
struct PlacedMapTests {
    /// Points kept clear between pictures: `ScreenPlacement.gap`, MapLibre's default icon padding.
    static let gap = 2.0
    /// How far a hidden marker's blocker may be beyond the gap, measured on the pictures' pixels:
    /// the footprint placed is the union over every scale, which is wider than the @2x picture by
    /// under a point.
    static let slack = 1.0

    struct Case: Sendable, CustomTestStringConvertible {
        let name: String
        let route: @Sendable () throws -> Route
        var testDescription: String { name }
    }

    static let cases: [Case] =
        MadeRoutes.all.map { made in Case(name: made.name, route: { made.route }) }
        + ["korita-zbevnica.gpx", "cerknicko-jezero.gpx", "Mojstrovka.gpx", "route.gpx"].map { name in
            Case(name: name, route: { try Route.load(path: Repository.sharedRoute(name), format: nil) })
        }
        + [
            Case(
                name: "across the antimeridian",
                route: { try Route.load(path: Repository.path("Tests/Fixtures/antimeridian.geojson"), format: nil) })
        ]

    /// Writes `route`'s batch (day theme, 1x and @2x, sprites and style) and reads it back.
    static func written(_ route: Route, visibility: MarkerPlan.Visibility = .fit, in folder: String) async throws -> WrittenMap {
        var options = RouteBatch.Options()
        options.route.themes = [.day]
        options.route.visibility = visibility
        _ = try await RouteBatch(route: route, options: options).write(to: FilePath(folder), threads: 2)
        return try WrittenMap(folder: folder)
    }

    @Test("no overlap, one minzoom, priority, nothing hidden in open space, every reading at zoom 22", arguments: cases)
    func rules(_ example: Case) async throws {
        let folder = try BatchFixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let route = try example.route()
        let map = try await Self.written(route, in: folder)
        let markers = map.markers
        try #require(markers.count >= 2)

        // 2. Monotone: one minzoom each, and the style shows each from it on.
        for marker in markers {
            let zooms = marker.minzoom <= 22 ? Array(marker.minzoom...22) : []
            #expect(marker.zooms == zooms, "\(marker.label): zooms \(marker.zooms), minzoom \(marker.minzoom)")
        }
        for layer in try #require(map.style?["layers"] as? [[String: Any]]) {
            let filter = String(decoding: try JSONSerialization.data(withJSONObject: try #require(layer["filter"])), as: UTF8.self)
            let id = layer["id"] as? String ?? ""
            if id.hasPrefix("markerpaint-markers-") {
                #expect(filter == #"["all",["!=",["get","kind"],"pin"],[">=",["zoom"],["get","minzoom"]]]"#)
            } else if id.hasPrefix("markerpaint-pins-") {
                #expect(filter == #"["all",["==",["get","kind"],"pin"],[">=",["zoom"],["get","minzoom"]]]"#)
            } else {
                #expect(id.hasPrefix("markerpaint-callouts-") && filter == #"["==",["get","pin"],0]"#, "\(id): \(filter)")
            }
        }

        let importance = Self.importance(map, route: route)
        for zoom in 0...22 {
            // 1. No two pictures shown at a zoom come within the gap.
            for (first, second) in map.crowdedPairs(zoom: zoom, gap: Self.gap - 1e-9) {
                Issue.record("zoom \(zoom): \(markers[first].label) and \(markers[second].label) come within \(Self.gap) points")
            }
            // 4. A marker is hidden only where it would come within the gap of one shown, and
            // 3. one shown there before it or more important than it.
            let shown = map.shown(at: zoom)
            // (Distance markers wait for their even step: `evenSteps`.)
            for hidden in markers.indices where !markers[hidden].zooms.contains(zoom) && !Self.counted(markers[hidden]) {
                let blockers = shown.filter { map.boxesNear(hidden, $0, zoom: zoom, gap: Self.gap + Self.slack) }
                #expect(!blockers.isEmpty, "zoom \(zoom): \(markers[hidden].label) is hidden with room to show")
                let fair = blockers.contains { markers[$0].minzoom < zoom || importance[$0] < importance[hidden] }
                #expect(blockers.isEmpty || fair, "zoom \(zoom): \(markers[hidden].label) gave way to less important markers")
            }
        }

        // 5. Every reading, at zoom 22; readings that meet are one marker.
        // Pins go before distance markers: a reading may wait for good only under a pin, and a pin
        // only under a start or an end, shown at zoom 22 (rule 4 checks that each waits for cause).
        for (index, marker) in markers.enumerated() where marker.minzoom > 22 {
            let under = map.shown(at: 22).filter { map.boxesNear(index, $0, zoom: 22, gap: Self.gap + Self.slack) }
            #expect(
                under.contains { marker.kind == "pin" ? markers[$0].kind != "pin" : markers[$0].kind == "pin" },
                "\(marker.label) never shows, under \(under.map { markers[$0].label })")
        }
        let separate = try MarkerPlan(route: route, unit: .km, cumulative: false, combining: false).markers
        let expected = separate.flatMap(\.marker.parts).map { "\($0.kind.rawValue)\($0.number)" }.sorted()
        #expect(markers.filter { $0.kind != "pin" }.flatMap { Self.parts(of: $0) }.sorted() == expected)
        #expect(markers.filter { $0.kind == "pin" }.count == route.waypoints.count)
        for first in markers.indices where markers[first].kind != "pin" {
            for second in markers.indices where second > first && markers[second].kind != "pin" {
                let apart = Geodesic.inverse(
                    from: Coordinate(latitude: markers[first].latitude, longitude: markers[first].longitude),
                    to: Coordinate(latitude: markers[second].latitude, longitude: markers[second].longitude)
                ).distance
                #expect(apart > 50, "\(markers[first].label) and \(markers[second].label) are \(apart) m apart: one marker")
            }
        }
        // The route's start is on every zoom.
        #expect(markers[0].minzoom == 0)
    }

    static func counted(_ marker: WrittenMap.Marker) -> Bool { marker.kind == "distance" || marker.kind == "countdown" }

    /// The steps a gap of `step` may split by, finest last: 10 → 5 → 1, 20 → 10 → 5 → 1, 50 → 10 …
    static func finerSteps(_ step: Int) -> [Int] {
        var steps: [Int] = []
        var current = step
        while current > 1 {
            let digits = String(current)
            current = digits.first == "1" ? current / 2 : Int("1" + String(repeating: "0", count: digits.count - 1)) ?? 1
            steps.append(current)
        }
        return steps
    }

    /// The bearings a turned map is checked at: every 15°.
    static let bearings = stride(from: 0.0, to: 360, by: 15).map { $0 }

    @Test("distance markers in even steps at every zoom, north up and turned; a gap splits only by a step dividing its own", arguments: cases)
    func evenSteps(_ example: Case) async throws {
        let folder = try BatchFixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let map = try await Self.written(try example.route(), in: folder)
        for turned in [false, true] {
            var previous: [(stage: Int, low: Int, high: Int, step: Int)] = []
            for zoom in 0...22 {
                let pairs = map.neighbours(zoom: zoom, gap: Self.gap + Self.slack, bearings: turned ? Self.bearings : nil)
                for pair in pairs where pair.step == 0 {
                    Issue.record("zoom \(zoom)\(turned ? " turned" : ""): stage \(pair.stage) shows \(pair.low) and \(pair.high) in no even step")
                }
                // What appeared between two neighbours of the zoom before: multiples of a step dividing
                // theirs (their own step where a marker it held back is clear now).
                for before in previous where before.step > 0 {
                    let new = pairs.filter { $0.stage == before.stage && $0.low >= before.low && $0.high <= before.high }.map(\.high).filter { $0 < before.high }
                    guard !new.isEmpty else { continue }
                    let step = WrittenMap.ladder.reversed().first { step in before.step % step == 0 && new.allSatisfy { $0 % step == 0 } } ?? 0
                    #expect(step == before.step || Self.finerSteps(before.step).contains(step), "zoom \(zoom)\(turned ? " turned" : ""): stage \(before.stage) split \(before.low)-\(before.high) (step \(before.step)) by \(new)")
                }
                previous = pairs
            }
        }
    }

    @Test("turned to any bearing (every 15°), no two pictures meet from minzoomTurned on; never before minzoom", arguments: cases)
    func turned(_ example: Case) async throws {
        let folder = try BatchFixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let map = try await Self.written(try example.route(), in: folder)
        #expect(map.markers.allSatisfy { $0.minzoomTurned >= $0.minzoom })
        // Never turned only under a picture that goes first, at some bearing at zoom 22 (as north up).
        for (index, marker) in map.markers.enumerated() where marker.minzoomTurned > 22 {
            let under = map.shownTurned(at: 22).filter { other in
                Self.bearings.contains { map.boxesNear(index, other, zoom: 22, gap: Self.gap + Self.slack, bearing: $0) }
            }
            #expect(
                under.contains { marker.kind == "pin" ? map.markers[$0].kind != "pin" : map.markers[$0].kind == "pin" },
                "\(marker.label) never shows turned, under \(under.map { map.markers[$0].label })")
        }
        for zoom in 0...22 {
            for (first, second) in map.crowdedPairs(zoom: zoom, gap: Self.gap - 1e-9, bearings: Self.bearings) {
                Issue.record("zoom \(zoom) turned: \(map.markers[first].label) and \(map.markers[second].label) meet")
            }
        }
        // The same map turned with the north-up minzooms: what the check catches.
        let meetingNorthUp = (0...22).reduce(0) { $0 + map.crowdedPairs(zoom: $1, gap: Self.gap - 1e-9, bearings: Self.bearings, northUpShown: true).count }
        if example.name == "a city tour of 12 stages" || example.name == "korita-zbevnica.gpx" {
            #expect(meetingNorthUp > 0, "north-up minzooms turned: no pictures meet, so the check shows nothing")
        }
        let north = (12...16).map { map.shown(at: $0).count }
        let turned = (12...16).map { map.shownTurned(at: $0).count }
        print("\(example.name): zooms 12-16 show \(north) north up, \(turned) turned, of \(map.markers.count); north-up minzooms turned meet \(meetingNorthUp) times")
    }

    @Test("the checks catch the app's zoom table piling markers up on the same routes")
    func tableFails() async throws {
        let folder = try BatchFixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let map = try await Self.written(MadeRoutes.cityTour, visibility: .table, in: folder + "/tour")
        // Pixels over each other, not merely within the gap.
        let crowded = (0...22).map { map.crowdedPairs(zoom: $0, gap: 1e-9).count }
        // Twelve stages' 24 starts and ends on one another from zoom 0 on.
        #expect(crowded[0] >= 200, "\(crowded)")
        #expect(crowded[13] > 0, "\(crowded)")
        let long = try await Self.written(MadeRoutes.long, visibility: .table, in: folder + "/long")
        #expect(long.crowdedPairs(zoom: 5, gap: 1e-9).count > 10)
    }

    @Test("a 3 km hike shows every kilometre at zoom 13, where the table showed none")
    func shortHikeShowsEveryKilometre() async throws {
        let folder = try BatchFixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let map = try await Self.written(MadeRoutes.shortHike, in: folder + "/fit")
        let atThirteen = map.markers.filter { $0.minzoom <= 13 }.map(\.label)
        #expect(atThirteen == ["0km", "1km", "2km", "3km"])
        let table = try await Self.written(MadeRoutes.shortHike, visibility: .table, in: folder + "/table")
        #expect(table.markers.filter { $0.zooms.contains(13) }.map(\.label) == ["0km", "3km"])
    }

    @Test("an out-and-back's two legs meet in combined markers, outbound reading first")
    func outAndBackCombines() async throws {
        let folder = try BatchFixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let map = try await Self.written(MadeRoutes.outAndBack, in: folder)
        let labels = map.markers.map(\.label)
        #expect(labels.first == "start0km_end20km")
        for outbound in 1...9 {
            #expect(labels.contains("distance\(outbound)km_distance\(20 - outbound)km"), "\(labels)")
        }
        #expect(labels.contains("10km"))
    }

    @Test("laps that pass a place within 50 m show its readings in one marker, in route order")
    func lapsCombine() async throws {
        let folder = try BatchFixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let map = try await Self.written(MadeRoutes.laps, in: folder)
        let labels = map.markers.map(\.label)
        // The start line: the route's start, each lap's 5 km and the end, in the order ridden.
        #expect(labels.first?.hasPrefix("start0km_distance5km_distance10km_distance15km_end20") == true, "\(labels)")
        // Elsewhere each lap's kilometre meets the laps' before it: 1, 6, 11 and 16 km in one marker.
        for first in 1...4 {
            #expect(labels.contains((0..<4).map { "distance\(first + 5 * $0)km" }.joined(separator: "_")), "\(labels)")
        }
    }

    /// Each reading a marker shows, spelled `<kind><number>` from its label.
    static func parts(of marker: WrittenMap.Marker) -> [String] {
        guard marker.kind == "combined" else { return [marker.kind + String(marker.label.dropLast(2))] }
        return marker.label.split(separator: "_").map { String($0.dropLast(2)) }
    }

    /// How each marker ranks, from its picture and place alone: the route's start, then the marker
    /// at the route's last point holding an end, then those holding a start or an end, then the
    /// pins, then the others by the roundest distance they read (100, 50, 10, 5, 2, 1 km and
    /// rounder); ties in file (route) order.
    static func importance(_ map: WrittenMap, route: Route) -> [Int] {
        let last = route.stages.last?.coordinates.last ?? Coordinate(latitude: 0, longitude: 0)
        let roundnesses = [100_000, 50_000, 10_000, 5_000, 1_000, 500, 100, 50, 10, 5, 2, 1]
        let tiers = map.markers.enumerated().map { index, marker -> Int in
            if marker.kind == "pin" { return 3 }
            let parts = parts(of: marker)
            let holdsEnd = parts.contains { $0.hasPrefix("end") }
            if index == 0 { return 0 }
            let atLast = Geodesic.inverse(from: Coordinate(latitude: marker.latitude, longitude: marker.longitude), to: last).distance <= 50
            if holdsEnd && atLast { return 1 }
            if holdsEnd || parts.contains(where: { $0.hasPrefix("start") }) { return 2 }
            let roundest =
                parts.compactMap { part -> Int? in
                    guard let value = Double(part.drop { $0.isLetter }.replacing(",", with: ".")) else { return nil }
                    let step = Int(value.rounded())
                    return roundnesses.firstIndex { step.isMultiple(of: $0) }
                }.min() ?? roundnesses.count
            return 4 + roundest
        }
        // Ranks: tier first, then route order.
        return map.markers.indices.map { tiers[$0] * map.markers.count + $0 }
    }
}
