import Foundation
import TestSupport
import Testing

/// `route --offline`: the corridor and tiles beside the markers, recorded in the manifest like them.
@Suite("markerpaint route --offline")
struct OfflineCommandTests {
    struct Tiles: Decodable {
        struct Zoom: Decodable {
            var zoom: Int
            var tileZoom: Int
            var count: Int
            var boxCount: Int
            var bytes: Int
            var tileBytes: Int
            var tiles: [[Int]]
        }
        var count: Int
        var boxCount: Int
        var bytes: Int
        var minzoom: Int
        var maxzoom: Int
        var zooms: [Zoom]
    }

    struct Corridor: Decodable {
        struct Geometry: Decodable { var type: String }
        var type: String
        var geometry: Geometry
    }

    static let track = Repository.sharedRoutes.appendingPathComponent("korita-zbevnica.gpx").path

    @Test("the pack beside the markers: every zoom's tiles hold their children's parents, fewer than the box's; gone when not asked for again")
    func packBesideMarkers() throws {
        let folder = try CLI.temporaryFolder()
        let run = try CLI.run(["route", Self.track, "--out", "r", "--themes", "day", "--offline", "--tile-bytes", "8=40000,16=9000"], in: folder)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains("offline: "), "\(run.stdout)")
        let offline = folder.appendingPathComponent("r/offline")
        let tiles = try JSONDecoder().decode(Tiles.self, from: Data(contentsOf: offline.appendingPathComponent("tiles.json")))
        #expect(tiles.zooms.map(\.zoom) == Array(8...16))
        #expect(tiles.zooms.map(\.tileZoom) == Array(9...17))
        #expect(tiles.zooms.map(\.tileBytes) == [40000] + Array(repeating: 20000, count: 7) + [9000])
        for (outer, inner) in zip(tiles.zooms, tiles.zooms.dropFirst()) {
            let parents = Set(inner.tiles.map { [$0[0] >> 1, $0[1] >> 1] })
            #expect(parents.isSubset(of: Set(outer.tiles)), "zoom \(outer.zoom) lacks parents of \(inner.zoom)")
        }
        #expect(tiles.zooms.allSatisfy { $0.count == $0.tiles.count && $0.bytes == $0.count * $0.tileBytes && $0.count <= $0.boxCount })
        #expect(tiles.count == tiles.zooms.map(\.count).reduce(0, +) && tiles.count < tiles.boxCount)
        let corridor = try JSONDecoder().decode(Corridor.self, from: Data(contentsOf: offline.appendingPathComponent("corridor.geojson")))
        #expect(corridor.type == "Feature" && ["Polygon", "MultiPolygon"].contains(corridor.geometry.type))
        let manifest = try String(contentsOf: folder.appendingPathComponent("r/manifest.json"), encoding: .utf8)
        #expect(manifest.contains("offline/corridor.geojson") && manifest.contains("offline/tiles.json"))

        // Run again with a smaller pack: replaced; then without one: the folder goes.
        let again = try CLI.run(["route", Self.track, "--out", "r", "--themes", "day", "--offline", "--offline-zooms", "10-12"], in: folder)
        #expect(again.status == 0, "\(again.stderr)")
        let smaller = try JSONDecoder().decode(Tiles.self, from: Data(contentsOf: offline.appendingPathComponent("tiles.json")))
        #expect(smaller.zooms.map(\.zoom) == [10, 11, 12])
        let without = try CLI.run(["route", Self.track, "--out", "r", "--themes", "day"], in: folder)
        #expect(without.status == 0, "\(without.stderr)")
        #expect(!FileManager.default.fileExists(atPath: offline.path))
    }

    @Test("a file in offline/ that markerpaint did not write stops the run, and nothing is changed")
    func foreignFileIsKept() throws {
        let folder = try CLI.temporaryFolder()
        #expect(try CLI.run(["route", Self.track, "--out", "r", "--themes", "day", "--offline"], in: folder).status == 0)
        let mine = folder.appendingPathComponent("r/offline/notes.txt")
        try Data("mine".utf8).write(to: mine)
        let run = try CLI.run(["route", Self.track, "--out", "r", "--themes", "day"], in: folder)
        #expect(run.status != 0)
        #expect(run.stderr.contains("offline/notes.txt"), "\(run.stderr)")
        #expect(try String(contentsOf: mine, encoding: .utf8) == "mine")
        #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("r/offline/tiles.json").path))
    }

    @Test(
        "bad offline flags are one line naming the flag",
        arguments: [
            (["--buffer", "500"], "--buffer is for --offline"),
            (["--offline", "--buffer", "0"], "--buffer must be 1 to 100000"),
            (["--offline", "--buffer", "nan"], "--buffer must be 1 to 100000"),
            (["--offline", "--offline-zooms", "16-8"], "--offline-zooms must be two zooms"),
            (["--offline", "--offline-zooms", "8-23"], "--offline-zooms must be two zooms"),
            (["--offline", "--tile-size", "300"], "--tile-size must be 256 or 512"),
            (["--offline", "--tile-bytes", "7=100"], "--tile-bytes: \"7=100\" is not zoom=bytes"),
            (["--offline", "--tile-bytes", "lots"], "--tile-bytes: \"lots\" is not a number"),
            (["--offline", "--max-offline-tiles", "100"], "could hold up to"),
        ])
    func badFlags(flags: [String], message: String) throws {
        let folder = try CLI.temporaryFolder()
        let run = try CLI.run(["route", Self.track, "--out", "r", "--themes", "day"] + flags, in: folder)
        #expect(run.status != 0)
        #expect(run.stderr.contains(message), "\(run.stderr)")
        // One line, beside the warnings the route itself brings (this track has an empty one).
        #expect(run.stderr.split(separator: "\n").filter { !$0.hasPrefix("markerpaint: warning:") }.count == 1, "\(run.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("r/offline").path))
    }
}
