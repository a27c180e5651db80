import ArgumentParser
import Foundation
import MarkerArchive
import MarkerPack

extension MarkerBench {
    /// The offline pack fetched from a server `--latency-ms` away: the whole `route --tiles-from`
    /// command against the seed app's loop, one GET per tile in order, in the same run.
    struct PackRun: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "pack",
            abstract: "Fetch a route's offline pack from a server 20 ms away: route --tiles-from against one GET per tile in order.",
            discussion: """
                A raster basemap over the route's corridor (PyPI's pmtiles, Tests/Scripts/raster_source.py) is served \
                as one PMTiles archive and as XYZ files by a local server that waits --latency-ms before each answer. Timed, each the \
                median of --runs, in turn: `markerpaint route --offline` without tiles, with --tiles-from the archive's URL, with \
                --tiles-from the XYZ template, and the seed app's TileDownloadManager loop (one GET per tile, in order, each written \
                to a file). The pack's time is the command's beyond the same command without tiles.
                """
        )

        @Option(help: "The route.") var route = "../shared/routes/korita-zbevnica.gpx"
        @Option(help: "Milliseconds the server waits before each answer.") var latencyMs = 20
        @Option(help: "Runs; each figure is the median run.") var runs = 3

        func validate() throws {
            guard (0...1000).contains(latencyMs) else { throw ValidationError("--latency-ms must be 0 to 1000") }
            guard (1...20).contains(runs) else { throw ValidationError("--runs must be 1 to 20") }
        }

        func run() async throws {
            let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            let scripts = repository.appendingPathComponent("Tests/Scripts")
            let binaries = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
            let markerpaint = binaries.appendingPathComponent("markerpaint").path
            guard FileManager.default.isExecutableFile(atPath: binaries.appendingPathComponent("markerpaint-pack").path) else {
                throw ValidationError("markerpaint-pack is not built beside the bench: swift build -c release --product markerpaint-pack")
            }
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("markerpaint-bench-pack-\(UUID())")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: folder) }
            let www = folder.appendingPathComponent("www")
            try FileManager.default.createDirectory(at: www, withIntermediateDirectories: true)

            // The tiles the route needs, and a source over them.
            _ = try Self.command(markerpaint, ["route", route, "--out", folder.appendingPathComponent("listing").path, "--offline", "--themes", "day"])
            let tileList = folder.appendingPathComponent("listing/offline/tiles.json")
            _ = try Self.command("/usr/bin/env", ["python3", scripts.appendingPathComponent("raster_source.py").path, tileList.path, www.appendingPathComponent("source.pmtiles").path, "--pmtiles"])
            _ = try Self.command("/usr/bin/env", ["python3", scripts.appendingPathComponent("raster_source.py").path, tileList.path, www.appendingPathComponent("xyz").path, "--xyz"])
            let list = try TileList(json: Array(Data(contentsOf: tileList)))

            let server = try DelayServer(script: scripts.appendingPathComponent("range_server.py").path, root: www.path, latency: Double(latencyMs) / 1000)
            let base = "http://127.0.0.1:\(server.port)"
            print("route: \(route); \(list.tiles.count) tiles; the server \(latencyMs) ms away; median of \(runs)")

            var plain: [Double] = []
            var archive: [Double] = []
            var xyz: [Double] = []
            var seed: [Double] = []
            var archiveBytes: [Int] = []
            var archiveRequests: [Int] = []
            for run in 1...runs {
                func out(_ name: String) -> String { folder.appendingPathComponent("\(name)-\(run)").path }
                plain.append(try Self.timedCommand(markerpaint, ["route", route, "--out", out("plain"), "--offline", "--themes", "day"]))
                let before = try await server.stats()
                archive.append(try Self.timedCommand(markerpaint, ["route", route, "--out", out("archive"), "--offline", "--themes", "day", "--tiles-from", "\(base)/source.pmtiles"]))
                let after = try await server.stats()
                archiveBytes.append(after.bytes - before.bytes)
                archiveRequests.append(after.requests - before.requests)
                xyz.append(try Self.timedCommand(markerpaint, ["route", route, "--out", out("xyz"), "--offline", "--themes", "day", "--tiles-from", "\(base)/xyz/{z}/{x}/{y}.png"]))
                seed.append(try await Self.seedLoop(list.tiles, template: "\(base)/xyz/{z}/{x}/{y}.png", into: folder.appendingPathComponent("seed-\(run)")))
            }
            await server.stop()
            let median = { (values: [Double]) in values.sorted()[values.count / 2] }
            let (p, a, x, s) = (median(plain), median(archive), median(xyz), median(seed))
            let packed = try Self.packedSize(folder.appendingPathComponent("archive-1"))
            func seconds(_ value: Double) -> String { String(format: "%.3f s", value) }
            print("route --offline, no tiles:            \(seconds(p))")
            print("route --tiles-from the archive:       \(seconds(a))  (the pack: \(seconds(a - p)), \(archiveRequests.sorted()[runs / 2]) requests)")
            print("route --tiles-from the XYZ template:  \(seconds(x))  (the pack: \(seconds(x - p)))")
            print("seed loop, one GET per tile in order: \(seconds(s))")
            print(String(format: "ratio: the archive %.1fx the seed loop, the XYZ template %.1fx", s / max(a - p, 0.001), s / max(x - p, 0.001)))
            let fetched = archiveBytes.sorted()[runs / 2]
            print(
                String(
                    format: "bytes fetched from the archive: %d for %d bytes of tile data and %d of directories read (%.3fx)", fetched, packed.tileData,
                    packed.directories, Double(fetched) / Double(max(packed.tileData + packed.directories, 1))))
        }

        /// The seed app's TileDownloadManager: each tile fetched in order, one request at a time, written to a file.
        static func seedLoop(_ tiles: [TileAddress], template: String, into folder: URL) async throws -> Double {
            var options = HTTPFetcher.Options()
            options.concurrency = 1
            let fetcher = HTTPFetcher(options: options)
            let start = Date()
            for tile in tiles {
                let response = try await fetcher.get(XYZSource.url(template, tile)) { status, _ in status == 200 ? 16 << 20 : nil }
                let file = folder.appendingPathComponent("\(tile.zoom)/\(tile.x)")
                try FileManager.default.createDirectory(at: file, withIntermediateDirectories: true)
                try Data(response.body).write(to: file.appendingPathComponent("\(tile.y).png"))
            }
            let elapsed = Date().timeIntervalSince(start)
            await fetcher.shutdown()
            return elapsed
        }

        /// The tile data of the pack in `folder`, and the source's directories the pack had to read (its first 16 KiB and metadata).
        static func packedSize(_ folder: URL) throws -> (tileData: Int, directories: Int) {
            let manifest = try JSONSerialization.jsonObject(with: Data(contentsOf: folder.appendingPathComponent("manifest.json"))) as? [String: Any]
            let file = ((manifest?["offlinePack"] as? [String: Any])?["file"] as? String) ?? ""
            let bytes = Array(try Data(contentsOf: folder.appendingPathComponent(file)))
            let header = try PMTiles.Header(bytes)
            return (Int(header.tileDataLength), 16_384)
        }

        static func timedCommand(_ executable: String, _ arguments: [String]) throws -> Double {
            let start = Date()
            _ = try command(executable, arguments)
            return Date().timeIntervalSince(start)
        }

        @discardableResult
        static func command(_ executable: String, _ arguments: [String]) throws -> String {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: executable)
            process.arguments = arguments
            let output = Pipe()
            process.standardOutput = output
            process.standardError = FileHandle.nullDevice
            try process.run()
            let data = output.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            guard process.terminationStatus == 0 else { throw ValidationError("\(executable) \(arguments.joined(separator: " ")) exited \(process.terminationStatus)") }
            return String(decoding: data, as: UTF8.self)
        }
    }
}

/// range_server.py in its static mode with a delay, on loopback.
final class DelayServer {
    let process = Process()
    let port: Int

    init(script: String, root: String, latency: Double) throws {
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", script, root, "static", String(latency)]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        var line = Data()
        while !line.contains(UInt8(ascii: "\n")) {
            let chunk = output.fileHandleForReading.availableData
            guard !chunk.isEmpty else { throw ValidationError("the delay server did not start") }
            line += chunk
        }
        port = Int(String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
    }

    private let fetcher = HTTPFetcher()

    /// Requests answered and body bytes sent so far.
    func stats() async throws -> (requests: Int, bytes: Int) {
        let response = try await fetcher.get("http://127.0.0.1:\(port)/__stats") { _, _ in 4096 }
        let object = try JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Int]
        return (object?["requests"] ?? 0, object?["bytes"] ?? 0)
    }

    func stop() async {
        await fetcher.shutdown()
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }
}
