import Foundation
import RouteModel
import RouteFormats
import OfflineCorridor
import TestSupport
import Testing

@Suite("Offline packs")
struct OfflinePackTests {
    @Test("a real track: tiles at every zoom, each zoom's parents in the next out, fewer than the box's")
    func realTrack() throws {
        let route = try Route.load(path: Repository.sharedRoutes.appendingPathComponent("korita-zbevnica.gpx").path, format: nil)
        let pack = try OfflinePack(route: route, options: OfflinePack.Options())
        #expect(pack.levels.map(\.zoom) == Array(8...16))
        for (outer, inner) in zip(pack.levels, pack.levels.dropFirst()) {
            for tile in inner.tiles.tiles { #expect(outer.tiles.contains(x: tile.x >> 1, y: tile.y >> 1)) }
        }
        #expect(pack.count < pack.boxCount)
    }

    @Test("a route of jumps across the world is refused before it is followed on the ground, in a moment")
    func jumpsAreRefused() throws {
        // Nearly antipodes, back and forth: about 20,000 km a jump, 4,000 points each on the ground.
        let points = (0..<600).map { Coordinate(latitude: $0 % 2 == 0 ? -60 : 60, longitude: $0 % 2 == 0 ? 0 : 179) }
        let started = ProcessorTime.ofThisThread()
        #expect {
            try OfflinePack(route: Route(stages: [Stage(coordinates: points)]), options: OfflinePack.Options())
        } throws: { error in
            (error as? RouteError)?.message.contains("too long for an offline pack") == true
        }
        let seconds = ProcessorTime.ofThisThread() - started
        #expect(seconds < 5, "took \(seconds) s of processor time")
    }
}

/// The tiles checked against shapely and mercantile (offline_oracle.py): every tile within the
/// buffer listed, every tile listed within the buffer and its own diagonal.
@Suite("Offline packs against shapely")
struct OfflineOracleTests {
    struct OracleFailure: Error, CustomStringConvertible {
        let description: String
    }

    struct Report: Decodable {
        var candidates: Int
        var listed: Int
        var within: Int
        var missing: [[Int]]
        var extra: [[Int]]
        var farthestListed: Double
        var nearestUnlisted: Double
        var corridorChecked: Bool
        var corridorValid: Bool
        var lackingArea: Double
        var beyondArea: Double

        /// Every rule kept: tiles within reach listed, none too far, the corridor valid and holding the buffer, not much more.
        var holds: Bool { missing.isEmpty && extra.isEmpty && corridorValid && lackingArea <= 1 && beyondArea <= 1 }
    }

    /// Runs the oracle on the pack's tiles at `tileZoom`.
    static func check(_ route: Route, _ pack: OfflinePack, tileZoom: Int, claiming buffer: Double? = nil) async throws -> Report {
        let level = try #require(pack.levels.first { $0.tileZoom == tileZoom })
        let input: [String: Any] = [
            "stages": route.stages.map { $0.coordinates.map { [$0.longitude, $0.latitude] } },
            "buffer": buffer ?? pack.options.buffer, "zoom": tileZoom,
            "tiles": level.tiles.tiles.map { [$0.x, $0.y] },
            "corridor": pack.corridor.map { $0.map { $0.map { [$0.longitude, $0.latitude] } } },
        ]
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("offline-\(UUID().uuidString).json")
        try JSONSerialization.data(withJSONObject: input).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let script = Repository.path("Tests/OfflineCorridorTests/offline_oracle.py")
        // The script exits 1 when a rule is broken, with its report on standard output all the same.
        // Awaited, not waited for: a test holding one of two cooperative threads for half a minute
        // starved every other suite.
        let output = try await Python.run([script, file.path], exitStatuses: [0, 1])
        guard !output.isEmpty else { throw OracleFailure(description: "the oracle wrote no report") }
        return try JSONDecoder().decode(Report.self, from: Data(output.utf8))
    }

    @Test("the real tracks, at the finest and a middle zoom", arguments: ["korita-zbevnica.gpx", "cerknicko-jezero.gpx", "route.gpx", "Mojstrovka.gpx"])
    func realTracks(file: String) async throws {
        let route = try Route.load(path: Repository.sharedRoutes.appendingPathComponent(file).path, format: nil)
        let pack = try OfflinePack(route: route, options: OfflinePack.Options())
        for zoom in [17, 13] {
            let report = try await Self.check(route, pack, tileZoom: zoom)
            #expect(report.holds && report.corridorChecked, "\(file) z\(zoom): \(report)")
            #expect(report.listed >= report.within)
        }
    }

    /// Routes made to find the edges: across the antimeridian, far north, up to Mercator's limit, a loop, two stages apart.
    enum Made: String, CaseIterable, Sendable {
        case antimeridian, north80, mercatorLimit, loop, twoStages, long3000

        var route: Route {
            func line(_ start: Coordinate, _ azimuth: Double, _ metres: Double) -> [Coordinate] {
                (0...Int(metres / 500)).map { Geodesic.direct(from: start, azimuth: azimuth, distance: Double($0) * 500) }
            }
            switch self {
            case .antimeridian: return Route(stages: [Stage(coordinates: line(Coordinate(latitude: -17.1, longitude: 179.8), 80, 40_000))])
            case .north80: return Route(stages: [Stage(coordinates: line(Coordinate(latitude: 80, longitude: 20), 45, 30_000))])
            case .mercatorLimit: return Route(stages: [Stage(coordinates: line(Coordinate(latitude: 84.99, longitude: -40), 90, 20_000))])
            case .loop:
                let centre = Coordinate(latitude: 46.05, longitude: 14.5)
                return Route(stages: [Stage(coordinates: (0...72).map { Geodesic.direct(from: centre, azimuth: Double($0) * 5, distance: 3_000) })])
            case .long3000:
                // 3,000 km from Portugal to the Urals' foothills, a point a kilometre, bending as it goes.
                var points = [Coordinate(latitude: 39, longitude: -8)]
                for index in 1...3_000 {
                    let azimuth = 60 + 25 * sin(Double(index) / 150)
                    points.append(Geodesic.direct(from: points[index - 1], azimuth: azimuth, distance: 1_000))
                }
                return Route(stages: [Stage(coordinates: points)])
            case .twoStages:
                return Route(stages: [
                    Stage(coordinates: line(Coordinate(latitude: 46, longitude: 14), 0, 10_000)),
                    Stage(coordinates: line(Coordinate(latitude: 46, longitude: 14.3), 180, 10_000)),
                ])
            }
        }
    }

    @Test("made routes, at the finest and a middle zoom", arguments: Made.allCases)
    func madeRoutes(made: Made) async throws {
        let pack = try OfflinePack(route: made.route, options: OfflinePack.Options())
        for zoom in made == .long3000 ? [15, 11] : [17, 12] {
            let report = try await Self.check(made.route, pack, tileZoom: zoom)
            #expect(report.holds && report.corridorChecked, "\(made) z\(zoom): \(report)")
            #expect(report.listed > 0)
        }
    }

    @Test("the check can fail: a pack of 1,800 m misses tiles of 2,000 m, one of 2,400 m lists tiles beyond them")
    func checkCanFail() async throws {
        let route = try Route.load(path: Repository.sharedRoutes.appendingPathComponent("korita-zbevnica.gpx").path, format: nil)
        for (buffer, broken) in [(1_800.0, \Report.missing), (2_400.0, \Report.extra)] {
            var options = OfflinePack.Options()
            options.buffer = buffer
            let report = try await Self.check(route, try OfflinePack(route: route, options: options), tileZoom: 17, claiming: 2_000)
            #expect(!report[keyPath: broken].isEmpty, "\(buffer) m: \(report)")
        }
    }
}
