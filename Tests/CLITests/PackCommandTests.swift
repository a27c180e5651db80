import Crypto
import Foundation
import MarkerPixels
import MarkerRender
import MarkerPNG
import TestSupport
import Testing

/// `route --offline --tiles-from`: the corridor's tiles fetched into one archive beside the markers,
/// read back by independent readers (PyPI's pmtiles, sqlite3), served by nginx and by a server that
/// misbehaves, and drawn by MapLibre Native with nothing served.
@Suite("markerpaint route --offline --tiles-from", .serialized)
struct PackCommandTests {
    static let track = Repository.sharedRoutes.appendingPathComponent("korita-zbevnica.gpx").path
    static let scripts = Repository.path("Tests/Scripts")

    /// A route folder's tile list and a raster source covering it (and a ring around), by PyPI's
    /// pmtiles; made once for the suite and shared, each test writing into a folder of its own.
    struct Fixture {
        let folder: URL
        let tileList: URL
        let source: URL
        /// Tiles tiles.json lists, as "z/x/y".
        let wanted: Set<String>

        init(drop: Int = 0, kind: String = "--pmtiles") async throws {
            let shared = try await Sources.shared.source(drop: drop, kind: kind)
            folder = try CLI.temporaryFolder()
            tileList = shared.tileList
            source = shared.source
            wanted = shared.wanted
        }

        func route(_ extra: [String], out: String = "ride") throws -> CLI.Run {
            try CLI.run(["route", PackCommandTests.track, "--out", out, "--themes", "day", "--offline"] + extra, in: folder)
        }

        /// Each tile of an archive as "z/x/y" → SHA-256, read by PyPI's pmtiles.
        func dump(_ archive: URL) async throws -> (tiles: [String: String], header: [String: Any], metadata: [String: Any]) {
            let output = try await Python.run(["\(PackCommandTests.scripts)/pmtiles_tool.py", "dump", archive.path])
            let document = try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any]
            var tiles: [String: String] = [:]
            for tile in (document?["tiles"] as? [[Any]]) ?? [] { tiles["\(tile[0])/\(tile[1])/\(tile[2])"] = tile[3] as? String }
            return (tiles, document?["header"] as? [String: Any] ?? [:], document?["metadata"] as? [String: Any] ?? [:])
        }

        func manifest(_ out: String = "ride") throws -> [String: Any] {
            try JSONSerialization.jsonObject(with: Data(contentsOf: folder.appendingPathComponent("\(out)/manifest.json"))) as? [String: Any] ?? [:]
        }

        func remove() { try? FileManager.default.removeItem(at: folder) }
    }

    @Test("a PMTiles archive: every listed tile, byte for byte, in one content-named archive recorded in the manifest")
    func fromArchive() async throws {
        try await Exclusively.run {
            let fixture = try await Fixture()
            defer { fixture.remove() }
            let run = try fixture.route(["--tiles-from", fixture.source.path])
            #expect(run.status == 0, "\(run.stderr)")
            #expect(run.stderr.contains("offline pack: \(fixture.wanted.count) tiles, 0 absent"), "\(run.stderr)")
            let manifest = try fixture.manifest()
            let pack = try #require(manifest["offlinePack"] as? [String: Any])
            let file = try #require(pack["file"] as? String)
            let archive = fixture.folder.appendingPathComponent("ride/\(file)")
            let bytes = try Data(contentsOf: archive)
            let sha256 = SHA256Hex.of(bytes)
            #expect(pack["sha256"] as? String == sha256)
            #expect(pack["bytes"] as? Int == bytes.count)
            #expect(file == "offline/basemap-\(sha256.prefix(10)).pmtiles")
            #expect((manifest["files"] as? [String: String])?[file] == sha256)

            let (packed, header, metadata) = try await fixture.dump(archive)
            let (source, _, _) = try await fixture.dump(fixture.source)
            #expect(Set(packed.keys) == fixture.wanted)
            for (tile, digest) in packed { #expect(source[tile] == digest, "tile \(tile)") }
            #expect(header["clustered"] as? Bool == true)
            #expect(header["tile_type"] as? String == "PNG")
            #expect(header["min_zoom"] as? Int == 9 && header["max_zoom"] as? Int == 17)
            // Shared tiles (the plain sea) stored once.
            #expect((header["tile_contents_count"] as? Int ?? 0) < fixture.wanted.count)
            #expect(metadata["attribution"] as? String == "© markerpaint tests")
            let box = try #require((JSONSerialization.jsonObject(with: Data(contentsOf: fixture.tileList)) as? [String: Any])?["box"] as? [Double])
            #expect(header["min_lon_e7"] as? Int == Int((box[0] * 1e7).rounded()) && header["max_lat_e7"] as? Int == Int((box[3] * 1e7).rounded()))

            // The offline style points at the pack.
            let style = try JSONSerialization.jsonObject(with: Data(contentsOf: fixture.folder.appendingPathComponent("ride/offline/style.json"))) as? [String: Any]
            let basemap = (style?["sources"] as? [String: Any])?["markerpaint-basemap"] as? [String: Any]
            #expect((basemap?["url"] as? String)?.hasSuffix(file) == true)
            #expect(basemap?["type"] as? String == "raster")
        }
    }

    @Test("MBTiles: TMS rows, the metadata MBTiles 1.3 asks for, read with sqlite3")
    func mbtiles() async throws {
        try await Exclusively.run {
            let fixture = try await Fixture()
            defer { fixture.remove() }
            let run = try fixture.route(["--tiles-from", fixture.source.path, "--pack-format", "mbtiles"])
            #expect(run.status == 0, "\(run.stderr)")
            let file = try #require((try fixture.manifest()["offlinePack"] as? [String: Any])?["file"] as? String)
            #expect(file.hasSuffix(".mbtiles"))
            let database = fixture.folder.appendingPathComponent("ride/\(file)").path
            let metadata = try Command.output("/usr/bin/sqlite3", [database, "SELECT name || '=' || value FROM metadata ORDER BY name"])
            for key in ["bounds=", "center=", "format=png", "maxzoom=17", "minzoom=9", "name=", "attribution=© markerpaint tests"] {
                #expect(metadata.contains(key), "\(metadata)")
            }
            let count = try Command.output("/usr/bin/sqlite3", [database, "SELECT count(*) FROM tiles"]).trimmingCharacters(in: .whitespacesAndNewlines)
            #expect(Int(count) == fixture.wanted.count)
            // Rows counted from the south: each listed tile is there under its TMS row, with the source's bytes.
            let (source, _, _) = try await fixture.dump(fixture.source)
            let listed = try Command.output("/usr/bin/sqlite3", [database, "SELECT zoom_level, tile_column, tile_row, hex(tile_data) FROM tiles WHERE zoom_level >= 15 LIMIT 40"])
            for line in listed.split(separator: "\n") {
                let parts = line.split(separator: "|")
                let (z, x, tms) = (Int(parts[0]) ?? 0, Int(parts[1]) ?? 0, Int(parts[2]) ?? 0)
                let y = (1 << z) - 1 - tms
                #expect(fixture.wanted.contains("\(z)/\(x)/\(y)"))
                #expect(source["\(z)/\(x)/\(y)"] == SHA256Hex.of(Data(hex: String(parts[3]))))
            }
        }
    }
}

extension PackCommandTests {
    /// `markerpaint-pack` itself, as `route --tiles-from` runs it, into a new folder of the fixture's.
    func pack(_ fixture: Fixture, from source: String, _ extra: [String] = []) throws -> (run: CLI.Run, folder: URL, record: [String: Any]) {
        let into = fixture.folder.appendingPathComponent("pack-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: into, withIntermediateDirectories: true)
        let executable = CLI.executable.deletingLastPathComponent().appendingPathComponent("markerpaint-pack")
        let run = try CLI.run(
            ["--tiles", fixture.tileList.path, "--from", source, "--into", into.path] + extra, in: fixture.folder, executable: executable)
        let line = run.stdout.split(separator: "\n").last.map(String.init) ?? ""
        let record = (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any] ?? [:]
        return (run, into, record)
    }

    @Test("served by nginx with byte ranges: the same pack, bytes fetched within 5% of the tiles' plus the directories")
    func overNginx() async throws {
        try await Exclusively.run {
            let fixture = try await Fixture()
            defer { fixture.remove() }
            let local = try pack(fixture, from: fixture.source.path)
            #expect(local.run.status == 0, "\(local.run.stderr)")
            let nginx = try Nginx(root: fixture.source.deletingLastPathComponent())
            let served = try pack(fixture, from: "http://127.0.0.1:\(nginx.port)/\(fixture.source.lastPathComponent)")
            #expect(served.run.status == 0, "\(served.run.stderr)")
            #expect(served.record["sha256"] as? String == local.record["sha256"] as? String)
            let archive = served.folder.appendingPathComponent(served.record["name"] as? String ?? "")
            let (_, header, _) = try await fixture.dump(archive)
            let (_, source, _) = try await fixture.dump(fixture.source)
            let log = try nginx.requests()
            let fetched = log.reduce(0) { $0 + $1.bytes }
            let tileBytes = header["tile_data_length"] as? Int ?? 0
            let directories = 16_384 + (source["metadata_length"] as? Int ?? 0) + (source["leaf_directory_length"] as? Int ?? 0)
            #expect(log.allSatisfy { $0.status == 206 }, "\(log.filter { $0.status != 206 })")
            #expect(Double(fetched) <= 1.05 * Double(tileBytes) + Double(directories), "fetched \(fetched) for \(tileBytes) bytes of tiles")
            #expect(log.count < fixture.wanted.count / 10, "\(log.count) requests for \(fixture.wanted.count) tiles")
            #expect(served.record["fetchedBytes"] as? Int == fetched)
        }
    }

    @Test("503s, 429s with Retry-After and cut connections are retried: the same pack", arguments: ["flaky", "cut"])
    func retried(mode: String) async throws {
        try await Exclusively.run {
            let fixture = try await Fixture()
            defer { fixture.remove() }
            let local = try pack(fixture, from: fixture.source.path)
            let server = try ChildServer(["\(PackCommandTests.scripts)/range_server.py", fixture.source.path, mode])
            let served = try pack(fixture, from: "http://127.0.0.1:\(server.port)/\(fixture.source.lastPathComponent)")
            #expect(served.run.status == 0, "\(served.run.stderr)")
            #expect(served.record["sha256"] as? String == local.record["sha256"] as? String)
        }
    }

    @Test(
        "a server that ignores Range, a web page, an archive replaced mid-pack, a 404: one line, exit 1, nothing left behind",
        arguments: [
            ("no-range", "ignores Range"), ("html", "web page"), ("etag-change", "changed while it was being packed"), ("missing", "404"),
        ])
    func refused(mode: String, message: String) async throws {
        try await Exclusively.run {
            let fixture = try await Fixture()
            defer { fixture.remove() }
            let server = try ChildServer(["\(PackCommandTests.scripts)/range_server.py", fixture.source.path, mode == "missing" ? "ranges" : mode])
            let url = "http://127.0.0.1:\(server.port)/\(mode == "missing" ? "gone.pmtiles" : fixture.source.lastPathComponent)"
            let refused = try pack(fixture, from: url)
            #expect(refused.run.status == 1)
            let errors = refused.run.stderr.split(separator: "\n").filter { $0.hasPrefix("markerpaint-pack:") }
            #expect(errors.count == 1 && errors.first?.contains(message) == true, "\(refused.run.stderr)")
            #expect(refused.run.stderr.contains("offline pack: no pack written"), "\(refused.run.stderr)")
            // No archive, no scratch or partial file.
            #expect(try CLI.files(in: refused.folder).isEmpty)
        }
    }

    @Test("https:// to a server that speaks plain HTTP: a TLS failure is one line, exit 1, nothing left behind")
    func tlsFailure() async throws {
        try await Exclusively.run {
            let fixture = try await Fixture()
            defer { fixture.remove() }
            let nginx = try Nginx(root: fixture.source.deletingLastPathComponent())
            let refused = try pack(fixture, from: "https://127.0.0.1:\(nginx.port)/\(fixture.source.lastPathComponent)")
            #expect(refused.run.status == 1)
            let errors = refused.run.stderr.split(separator: "\n").filter { $0.hasPrefix("markerpaint-pack:") }
            #expect(errors.count == 1 && errors.first?.contains("HTTPS connection failed") == true, "\(refused.run.stderr)")
            #expect(try CLI.files(in: refused.folder).isEmpty)
        }
    }

    @Test("route --tiles-from a server that refuses: one line, exit 1, the last pack and manifest as they were")
    func refusedKeepsLastPack() async throws {
        try await Exclusively.run {
            let fixture = try await Fixture()
            defer { fixture.remove() }
            let first = try fixture.route(["--tiles-from", fixture.source.path])
            #expect(first.status == 0, "\(first.stderr)")
            let ride = fixture.folder.appendingPathComponent("ride")
            let before = try Data(contentsOf: ride.appendingPathComponent("manifest.json"))
            let files = try CLI.files(in: ride.appendingPathComponent("offline"))
            let server = try ChildServer(["\(PackCommandTests.scripts)/range_server.py", fixture.source.path, "no-range"])
            let run = try fixture.route(["--tiles-from", "http://127.0.0.1:\(server.port)/\(fixture.source.lastPathComponent)"])
            #expect(run.status == 1)
            let errors = run.stderr.split(separator: "\n").filter { $0.hasPrefix("markerpaint:") && !$0.contains("warning") }
            #expect(errors.count == 1 && errors.first?.contains("ignores Range") == true, "\(run.stderr)")
            #expect(try Data(contentsOf: ride.appendingPathComponent("manifest.json")) == before)
            #expect(try CLI.files(in: ride.appendingPathComponent("offline")) == files)
        }
    }

    @Test("an XYZ template with holes and 503s: absent tiles counted and left out")
    func xyzTemplate() async throws {
        try await Exclusively.run {
            let fixture = try await Fixture(drop: 40, kind: "--xyz")
            defer { fixture.remove() }
            let server = try ChildServer(["\(PackCommandTests.scripts)/range_server.py", fixture.source.path, "xyz"])
            let served = try pack(fixture, from: "http://127.0.0.1:\(server.port)/{z}/{x}/{y}.png")
            #expect(served.run.status == 0, "\(served.run.stderr)")
            let present = fixture.wanted.filter { tile in
                FileManager.default.fileExists(atPath: fixture.source.appendingPathComponent("\(tile).png").path)
            }
            #expect(present.count < fixture.wanted.count)
            #expect(served.record["tiles"] as? Int == present.count)
            #expect(served.record["absent"] as? Int == fixture.wanted.count - present.count)
            let (packed, _, _) = try await fixture.dump(served.folder.appendingPathComponent(served.record["name"] as? String ?? ""))
            #expect(Set(packed.keys) == present)
            for tile in present {
                let bytes = try Data(contentsOf: fixture.source.appendingPathComponent("\(tile).png"))
                #expect(packed[tile] == SHA256Hex.of(bytes), "tile \(tile)")
            }
        }
    }

    @Test("--max-pack-bytes: refused before any tile is fetched, from the source's mean tile")
    func boundedBeforeFetching() async throws {
        try await Exclusively.run {
            let fixture = try await Fixture()
            defer { fixture.remove() }
            let nginx = try Nginx(root: fixture.source.deletingLastPathComponent())
            let refused = try pack(fixture, from: "http://127.0.0.1:\(nginx.port)/\(fixture.source.lastPathComponent)", ["--max-pack-bytes", "100000"])
            #expect(refused.run.status == 1)
            #expect(refused.run.stderr.contains("would hold about"), "\(refused.run.stderr)")
            // The header and root, and the metadata: nothing more.
            #expect(try nginx.requests().count <= 3)
            #expect(try CLI.files(in: refused.folder).isEmpty)
        }
    }

    @Test("MapLibre Native draws offline/style.json with nothing served: the basemap as the source archive draws it, along the route")
    func drawnOffline() async throws {
        try await Exclusively.run {
            let fixture = try await Fixture()
            defer { fixture.remove() }
            let run = try fixture.route(["--tiles-from", fixture.source.path])
            #expect(run.status == 0, "\(run.stderr)")
            let style = fixture.folder.appendingPathComponent("ride/offline/style.json")
            let views = fixture.folder.appendingPathComponent("views")
            try FileManager.default.createDirectory(at: views, withIntermediateDirectories: true)
            // Four views along the route at zooms 11 and 15: within 200 pixels of each centre, every pixel as the source draws it.
            for zoom in ["11", "15"] {
                let output = try await Python.run([
                    "\(PackCommandTests.scripts)/render_pack.py", style.path, "pmtiles://file://\(fixture.source.path)", views.path, zoom, "4",
                ])
                let report = try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [[String: Any]] ?? []
                #expect(report.count == 4)
                for view in report {
                    #expect(view["differing"] as? Int == 0, "zoom \(zoom): \(view)")
                    // The basemap drawn, not the background: the pack's tiles are there (a few pixels of
                    // the markers' pale pills come near the background's colour).
                    #expect(Double(view["basemap"] as? Int ?? 0) >= 0.98 * Double(view["compared"] as? Int ?? 1), "zoom \(zoom): \(view)")
                }
            }
        }
    }
}

extension PackCommandTests {
    @Test("vector tiles (tippecanoe's) with --pack-style: the user's style pointed at the pack, drawn offline as over the source")
    func vectorWithUserStyle() async throws {
        try await Exclusively.run {
            let folder = try CLI.temporaryFolder()
            defer { try? FileManager.default.removeItem(at: folder) }
            let listing = try CLI.run(["route", Self.track, "--out", "listing", "--themes", "day", "--offline", "--tile-size", "512"], in: folder)
            #expect(listing.status == 0, "\(listing.stderr)")
            let source = folder.appendingPathComponent("vector.pmtiles")
            try await Python.run(["\(Self.scripts)/vector_source.py", folder.appendingPathComponent("listing/offline").path, source.path])
            let style = folder.appendingPathComponent("user-style.json")
            try """
                {"version": 8, "name": "user basemap",
                 "sources": {"basemap": {"type": "vector", "url": "pmtiles://https://example.invalid/planet.pmtiles"}},
                 "layers": [
                  {"id": "bg", "type": "background", "paint": {"background-color": "#e8e4d8"}},
                  {"id": "area", "type": "fill", "source": "basemap", "source-layer": "area", "paint": {"fill-color": "#b8d8a8"}},
                  {"id": "roads", "type": "line", "source": "basemap", "source-layer": "roads", "paint": {"line-color": "#905020", "line-width": 2}}
                 ]}
                """.write(to: style, atomically: true, encoding: .utf8)
            let run = try CLI.run(
                ["route", Self.track, "--out", "ride", "--themes", "day", "--offline", "--tile-size", "512", "--tiles-from", source.path, "--pack-style", style.path],
                in: folder)
            #expect(run.status == 0, "\(run.stderr)")
            let manifest = try JSONSerialization.jsonObject(with: Data(contentsOf: folder.appendingPathComponent("ride/manifest.json"))) as? [String: Any]
            let pack = try #require(manifest?["offlinePack"] as? [String: Any])
            #expect(pack["tileType"] as? String == "pbf")
            let output = try await Python.run(["\(Self.scripts)/pmtiles_tool.py", "dump", folder.appendingPathComponent("ride/\(pack["file"] as? String ?? "")").path])
            let dump = try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any]
            #expect((dump?["header"] as? [String: Any])?["tile_compression"] as? String == "GZIP")
            #expect(((dump?["metadata"] as? [String: Any])?["vector_layers"] as? [Any])?.count == 2)
            let written = try JSONSerialization.jsonObject(with: Data(contentsOf: folder.appendingPathComponent("ride/offline/style.json"))) as? [String: Any]
            let basemap = (written?["sources"] as? [String: Any])?["basemap"] as? [String: Any]
            #expect((basemap?["url"] as? String)?.hasSuffix(pack["file"] as? String ?? "?") == true)
            #expect((written?["layers"] as? [[String: Any]])?.map { $0["id"] as? String ?? "" }.prefix(3) == ["bg", "area", "roads"])
            let views = folder.appendingPathComponent("views")
            try FileManager.default.createDirectory(at: views, withIntermediateDirectories: true)
            for zoom in ["11", "15"] {
                let report = try JSONSerialization.jsonObject(
                    with: Data(try await Python.run(["\(Self.scripts)/render_pack.py", folder.appendingPathComponent("ride/offline/style.json").path, "pmtiles://file://\(source.path)", views.path, zoom, "3"]).utf8))
                    as? [[String: Any]] ?? []
                #expect(report.count == 3)
                for view in report { #expect(view["differing"] as? Int == 0, "zoom \(zoom): \(view)") }
            }
        }
    }
}

extension PackCommandTests {
    /// What the preview page says it drew of the pack, from its `#state`.
    struct PageState: Decodable {
        struct Offline: Decodable {
            struct Basemap: Decodable {
                let source: String
                let error: String?
                let drawn: Int
                let loading: Int
                let absent: Int
                let broken: Int
            }
            let tileZoom: Int
            let drawn: Int
            let basemap: Basemap?
        }
        let offline: Offline?
    }

    static let view = (zoom: 12, longitude: 14.1445, latitude: 45.3806)

    /// The page at `url` in Chromium (preview_pack.py), once it has drawn what it draws of the pack.
    static func preview(_ url: String, screenshot: URL, open pack: URL? = nil, expectNone: Bool = false) async throws -> PageState {
        let output = try await Python.run(
            ["\(scripts)/preview_pack.py", url + "#z=\(view.zoom)&lon=\(view.longitude)&lat=\(view.latitude)&theme=day", screenshot.path]
                + (pack.map { ["--open", $0.path] } ?? []) + (expectNone ? ["--expect-none"] : []))
        return try JSONDecoder().decode(PageState.self, from: Data(output.utf8))
    }

    /// The colour raster_source.py gives a tile's plain cells: sea on every seventh, else from its address.
    static func colour(z: Int, x: Int, y: Int) -> [UInt8] {
        if (x + y) % 7 == 0 { return [40, 90, 160] }
        let digest = Array(SHA256.hash(data: Data("\(z)/\(x)/\(y)".utf8)))
        return (0..<3).map { UInt8(80 + Int(digest[$0]) % 150) }
    }

    /// Of the middle of each 32-pixel cell of each listed tile of `tileZoom` on the screenshot,
    /// how many are sampled and how many are in their tile's colour.
    static func cells(in shot: URL, tileZoom: Int, wanted: Set<String>) throws -> (sampled: Int, matching: Int) {
        let screen = try PNGDecoder.decode([UInt8](try Data(contentsOf: shot)))
        let scale = 512 * pow(2, Double(view.zoom))
        let sine = sin(view.latitude * .pi / 180)
        let centre = ((view.longitude + 180) / 360, 0.5 - log((1 + sine) / (1 - sine)) / (4 * .pi))
        let tiles = Double(1 << tileZoom)
        var (sampled, matching) = (0, 0)
        for tile in wanted {
            let parts = tile.split(separator: "/").compactMap { Int($0) }
            guard parts.count == 3, parts[0] == tileZoom else { continue }
            let left = (Double(parts[1]) / tiles - centre.0) * scale + Double(screen.width) / 2
            let top = (Double(parts[2]) / tiles - centre.1) * scale + Double(screen.height) / 2
            let expected = colour(z: parts[0], x: parts[1], y: parts[2])
            for row in 0..<8 {
                for column in 0..<8 {
                    let (x, y) = (Int(left + (Double(column) + 0.5) * scale / tiles / 8), Int(top + (Double(row) + 0.5) * scale / tiles / 8))
                    // Below the page's bar.
                    guard x >= 0, y >= 70, x < screen.width, y < screen.height else { continue }
                    sampled += 1
                    let pixel = screen[x, y]
                    if [pixel.r, pixel.g, pixel.b] == expected { matching += 1 }
                }
            }
        }
        return (sampled, matching)
    }

    @Test("the preview page draws the raster pack under the route: by byte ranges from nginx, whole from a server without Range, on request from file://")
    func previewDrawsPack() async throws {
        try await Exclusively.run {
            let fixture = try await Fixture()
            defer { fixture.remove() }
            let run = try fixture.route(["--tiles-from", fixture.source.path])
            #expect(run.status == 0, "\(run.stderr)")
            let ride = fixture.folder.appendingPathComponent("ride")
            let file = try #require((try fixture.manifest()["offlinePack"] as? [String: Any])?["file"] as? String)

            let nginx = try Nginx(root: ride)
            let shot = fixture.folder.appendingPathComponent("shot.png")
            let ranged = try await Self.preview("http://127.0.0.1:\(nginx.port)/index.html", screenshot: shot)
            let offline = try #require(ranged.offline)
            let basemap = try #require(offline.basemap)
            #expect(basemap.source == "http" && basemap.error == nil)
            #expect(basemap.drawn == offline.drawn && offline.drawn > 0, "\(basemap)")
            #expect(basemap.absent == 0 && basemap.broken == 0)
            // Byte ranges of the pack, never the whole of it.
            let packBytes = try #require((try fixture.manifest()["offlinePack"] as? [String: Any])?["bytes"] as? Int)
            let ranges = try nginx.requests().filter { $0.status == 206 }
            #expect(!ranges.isEmpty && ranges.reduce(0) { $0 + $1.bytes } < packBytes, "\(ranges.count) ranges of a \(packBytes)-byte pack")
            // The pixels: each tile's plain cells in its own colour, where the page puts the tile (the
            // route, the corridor's outline and the markers cover a few).
            let cells = try Self.cells(in: shot, tileZoom: offline.tileZoom, wanted: fixture.wanted)
            #expect(cells.sampled > 150)
            #expect(Double(cells.matching) >= 0.9 * Double(cells.sampled), "\(cells.matching) of \(cells.sampled) cells in their tile's colour")

            // A server that ignores Range (python3 -m http.server): the pack read whole, drawn the same.
            let folderServer = try ChildServer(["\(PackCommandTests.scripts)/range_server.py", ride.path, "folder"])
            let whole = try await Self.preview("http://127.0.0.1:\(folderServer.port)/index.html", screenshot: shot)
            #expect(whole.offline?.basemap?.drawn == offline.drawn && whole.offline?.basemap?.error == nil, "\(String(describing: whole.offline?.basemap))")
            let wholeCells = try Self.cells(in: shot, tileZoom: offline.tileZoom, wanted: fixture.wanted)
            #expect(Double(wholeCells.matching) >= 0.9 * Double(wholeCells.sampled))

            // From file:// the page cannot read the pack beside it: it draws the tiles' outlines and
            // offers to open it; given the file, as a reader picking it would, it draws the same.
            let page = "file://\(ride.path)/index.html"
            let unopened = try await Self.preview(page, screenshot: shot, expectNone: true)
            #expect(unopened.offline?.basemap?.source == "none" && unopened.offline?.basemap?.drawn == 0)
            #expect(unopened.offline?.drawn == offline.drawn)
            #expect(try Self.cells(in: shot, tileZoom: offline.tileZoom, wanted: fixture.wanted).matching == 0)
            let opened = try await Self.preview(page, screenshot: shot, open: ride.appendingPathComponent(file))
            #expect(opened.offline?.basemap?.source == "file" && opened.offline?.basemap?.drawn == offline.drawn)
            let openedCells = try Self.cells(in: shot, tileZoom: offline.tileZoom, wanted: fixture.wanted)
            #expect(Double(openedCells.matching) >= 0.9 * Double(openedCells.sampled))
        }
    }
}

/// A child server on loopback that prints its port first; stopped when the value goes. One that
/// quits early fails the test that started it.
final class ChildServer {
    let process = Process()
    let port: Int

    init(_ arguments: [String]) throws {
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3"] + arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        try process.run()
        var line = Data()
        while !line.contains(UInt8(ascii: "\n")) {
            let chunk = output.fileHandleForReading.availableData
            guard !chunk.isEmpty else { throw CocoaError(.fileReadUnknown) }
            line += chunk
        }
        guard let port = Int(String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)) else {
            throw CocoaError(.fileReadCorruptFile)
        }
        self.port = port
    }

    deinit {
        // SIGKILL: the test process's threads block SIGTERM, and its children inherit the mask.
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }
}

/// nginx on loopback serving a folder (byte ranges, keep-alive), with an access log of each request's status and bytes.
final class Nginx {
    let process = Process()
    let port: Int
    let folder: URL

    init(root: URL) throws {
        folder = try CLI.temporaryFolder()
        port = try Self.freePort()
        let configuration = """
            daemon off;
            pid \(folder.path)/nginx.pid;
            error_log \(folder.path)/error.log;
            events { worker_connections 256; }
            http {
              log_format sizes '$status $body_bytes_sent';
              access_log \(folder.path)/access.log sizes;
              client_body_temp_path \(folder.path); proxy_temp_path \(folder.path); fastcgi_temp_path \(folder.path);
              uwsgi_temp_path \(folder.path); scgi_temp_path \(folder.path);
              server { listen 127.0.0.1:\(port); root \(root.path); }
            }
            """
        try configuration.write(to: folder.appendingPathComponent("nginx.conf"), atomically: true, encoding: .utf8)
        process.executableURL = URL(fileURLWithPath: "/usr/sbin/nginx")
        process.arguments = ["-c", folder.appendingPathComponent("nginx.conf").path, "-p", folder.path]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        for _ in 0..<100 {
            if Self.accepts(port) { return }
            guard process.isRunning else { break }
            usleep(50_000)
        }
        throw CocoaError(.fileReadUnknown)
    }

    deinit {
        // nginx's master waits for signals with its own mask, so SIGTERM reaches it (and it stops its workers).
        kill(process.processIdentifier, SIGTERM)
        process.waitUntilExit()
        try? FileManager.default.removeItem(at: folder)
    }

    /// Each request served: its status and the body bytes sent.
    func requests() throws -> [(status: Int, bytes: Int)] {
        let text = (try? String(contentsOf: folder.appendingPathComponent("access.log"), encoding: .utf8)) ?? ""
        return text.split(separator: "\n").map { line in
            let parts = line.split(separator: " ")
            return (Int(parts.first ?? "") ?? 0, Int(parts.last ?? "") ?? 0)
        }
    }

    static func freePort() throws -> Int {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(socket) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(socket, $0, length) == 0 && getsockname(socket, $0, &length) == 0 }
        }
        guard bound else { throw CocoaError(.fileReadUnknown) }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    static func accepts(_ port: Int) -> Bool {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(socket) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = UInt16(port).bigEndian
        return withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
        }
    }
}

/// The tile list and the sources the suite's tests read, each made once.
actor Sources {
    static let shared = Sources()

    private var folder: URL?
    private var made: [String: (tileList: URL, source: URL, wanted: Set<String>)] = [:]

    func source(drop: Int, kind: String) async throws -> (tileList: URL, source: URL, wanted: Set<String>) {
        let key = "\(kind) \(drop)"
        if let known = made[key] { return known }
        let folder = try self.folder ?? CLI.temporaryFolder()
        self.folder = folder
        let tileList = folder.appendingPathComponent("listing/offline/tiles.json")
        if !FileManager.default.fileExists(atPath: tileList.path) {
            let listing = try CLI.run(["route", PackCommandTests.track, "--out", "listing", "--themes", "day", "--offline"], in: folder)
            guard listing.status == 0 else { throw CocoaError(.fileWriteUnknown, userInfo: [NSLocalizedDescriptionKey: listing.stderr]) }
        }
        let name = kind == "--xyz" ? "xyz-\(drop)" : kind == "--mbtiles" ? "source-\(drop).mbtiles" : "source-\(drop).pmtiles"
        let source = folder.appendingPathComponent(name)
        var arguments = ["\(PackCommandTests.scripts)/raster_source.py", tileList.path, source.path, kind]
        if drop > 0 { arguments += ["--drop", String(drop)] }
        try await Python.run(arguments)
        let list = try JSONSerialization.jsonObject(with: Data(contentsOf: tileList)) as? [String: Any]
        var wanted = Set<String>()
        for zoom in (list?["zooms"] as? [[String: Any]]) ?? [] {
            let z = zoom["tileZoom"] as? Int ?? -1
            for pair in (zoom["tiles"] as? [[Int]]) ?? [] where pair.count == 2 { wanted.insert("\(z)/\(pair[0])/\(pair[1])") }
        }
        made[key] = (tileList, source, wanted)
        return (tileList, source, wanted)
    }
}

extension Data {
    /// Bytes from hex digits, as sqlite3's hex() prints them.
    init(hex: String) {
        var bytes: [UInt8] = []
        var high: UInt8? = nil
        for scalar in hex.utf8 {
            let value: UInt8 = scalar >= 0x61 ? scalar - 0x61 + 10 : scalar >= 0x41 ? scalar - 0x41 + 10 : scalar - 0x30
            if let first = high {
                bytes.append(first << 4 | value)
                high = nil
            } else {
                high = value
            }
        }
        self.init(bytes)
    }
}
