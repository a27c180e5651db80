import Foundation
import TestSupport
import Testing

@Suite("markerpaint route")
struct RouteCommandTests {
    @Test("a real track gives images, markers.geojson, manifest, sprites and style layer; stdout is one summary line")
    func realTrack() throws {
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let run = try CLI.run(["route", Repository.sharedRoutes.appendingPathComponent("Mojstrovka.gpx").path, "--out", "out"], in: folder)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.split(separator: "\n").count == 1)
        #expect(run.stdout.contains("rendered") && run.stdout.contains("reused 0"))
        let files = Set(try CLI.files(in: folder.appendingPathComponent("out")))
        for name in ["markers.geojson", "manifest.json", "style.json", "style-layer.json"] {
            #expect(files.contains(name), "\(name) missing")
        }
        // One sheet per theme, at 1x and @2x, named by a hash: sprite-day-<10 hex>.png, …@2x.json.
        for theme in ["day", "night"] {
            for suffix in [".png", ".json", "@2x.png", "@2x.json"] {
                let pattern = try Regex("^sprite-\(theme)-[0-9a-f]{10}\(suffix.replacingOccurrences(of: ".", with: "\\."))$")
                #expect(files.filter { $0.wholeMatch(of: pattern) != nil }.count == 1, "sprite-\(theme)-<hash>\(suffix)")
            }
        }
        #expect(!files.contains { $0.hasPrefix("sprite-") && $0.contains("@3x") })
        let again = try CLI.run(["route", Repository.sharedRoutes.appendingPathComponent("Mojstrovka.gpx").path, "--out", "out"], in: folder)
        #expect(again.stdout.contains("rendered 0"))
        #expect(try CLI.files(in: folder) == ["out"], "no staging folder left behind")
    }

    @Test("style.json's URLs start with --base-url, or else with the folder's own file:// URL")
    func styleURLs() throws {
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let route = Repository.sharedRoutes.appendingPathComponent("route.gpx").path
        for (extra, base) in [
            (["--base-url", "https://cdn.example.com/ride"], "https://cdn.example.com/ride/"),
            ([], "file://" + folder.appendingPathComponent("my out").standardizedFileURL.path.replacingOccurrences(of: " ", with: "%20") + "/"),
        ] {
            #expect(try CLI.run(["route", route, "--out", "my out"] + extra, in: folder).status == 0)
            let style = try #require(
                try JSONSerialization.jsonObject(with: Data(contentsOf: folder.appendingPathComponent("my out/style.json"))) as? [String: Any])
            let urls = (style["sprite"] as? [[String: String]] ?? []).compactMap { $0["url"] }
            #expect(urls.count == 2 && urls.allSatisfy { $0.hasPrefix(base + "sprite-") }, "\(urls)")
            let data = ((style["sources"] as? [String: Any])?["markerpaint-markers"] as? [String: Any])?["data"] as? String
            #expect(data == base + "markers.geojson")
        }
    }

    @Test("--locale writes the labels' tenths with its mark in images, markers.geojson and the manifest")
    func locale() throws {
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        // About 4.5 km: its end reads 4,5 km in German.
        let polyline = Data("_kwwG_kmtA_|B??ozD".utf8)
        let run = try CLI.run(
            ["route", "-", "--polyline5", "--out", "out", "--themes", "night", "--scales", "1", "--locale", "de", "--no-sprites"], in: folder,
            input: polyline)
        #expect(run.status == 0, "\(run.stderr)")
        let out = folder.appendingPathComponent("out")
        let geoJSON = try String(contentsOf: out.appendingPathComponent("markers.geojson"), encoding: .utf8)
        let manifest = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: out.appendingPathComponent("manifest.json"))) as? [String: Any])
        let labels = (manifest["images"] as? [[String: Any]] ?? []).compactMap { $0["label"] as? String }
        let end = try #require(labels.first { $0.contains(",") }, "\(labels)")
        #expect(labels.allSatisfy { !$0.contains(".") }, "\(labels)")
        #expect(geoJSON.contains("\"label\":\"\(end)\""), "\(end)")
        #expect(manifest["locale"] as? String == "de")
        #expect(try CLI.files(in: out).contains { $0.hasPrefix("end-\(end)-night@1x-") })
    }

    @Test("--interval puts a marker at each of its multiples, and style and manifest follow it")
    func interval() throws {
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let run = try CLI.run(
            ["route", "-", "--polyline5", "--out", "out", "--themes", "day", "--scales", "2", "--interval", "0.5", "--no-sprites"], in: folder,
            input: Data("_kwwG_kmtA_|B??ozD".utf8))
        #expect(run.status == 0, "\(run.stderr)")
        let out = folder.appendingPathComponent("out")
        let geoJSON = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: out.appendingPathComponent("markers.geojson"))) as? [String: Any])
        let labels = (geoJSON["features"] as? [[String: Any]] ?? []).compactMap { ($0["properties"] as? [String: Any])?["label"] as? String }
        #expect(labels == ["0km", "0.5km", "1km", "1.5km", "2km", "2.5km", "3km", "3.5km", "4km", "4.5km"])
        let manifest = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: out.appendingPathComponent("manifest.json"))) as? [String: Any])
        #expect(manifest["interval"] as? Double == 0.5)
        let layer = try String(contentsOf: out.appendingPathComponent("style-layer.json"), encoding: .utf8)
        #expect(layer.filter { !$0.isWhitespace }.contains(#""filter":["all",["!=",["get","kind"],"pin"],[">=",["zoom"],["get","minzoom"]]]"#), "\(layer)")
        // The app's table counts in markers, so its filter compares tenths.
        let table = try CLI.run(
            [
                "route", "-", "--polyline5", "--out", "table", "--themes", "day", "--scales", "2", "--interval", "0.5", "--no-sprites", "--zooms",
                "table",
            ],
            in: folder, input: Data("_kwwG_kmtA_|B??ozD".utf8))
        #expect(table.status == 0, "\(table.stderr)")
        let tableLayer = try String(contentsOf: folder.appendingPathComponent("table/style-layer.json"), encoding: .utf8)
        #expect(tableLayer.contains("\"round\""))
        let tableManifest = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: folder.appendingPathComponent("table/manifest.json"))) as? [String: Any])
        #expect(tableManifest["zooms"] as? String == "table")
        #expect(manifest["zooms"] == nil)
    }

    @Test("--countdown: the markers between read what is left to the stage's end")
    func countdown() throws {
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let run = try CLI.run(
            ["route", "-", "--polyline5", "--out", "out", "--themes", "day", "--scales", "1", "--countdown"], in: folder,
            input: Data("_kwwG_kmtA_|B??ozD".utf8))
        #expect(run.status == 0, "\(run.stderr)")
        let out = folder.appendingPathComponent("out")
        let manifest = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: out.appendingPathComponent("manifest.json"))) as? [String: Any])
        let images = manifest["images"] as? [[String: Any]] ?? []
        let countdowns = images.filter { $0["kind"] as? String == "countdown" }.compactMap { $0["label"] as? String }
        #expect(Set(countdowns) == ["1km", "2km", "3km", "4km"])
        #expect(manifest["countdown"] as? Bool == true)
        #expect(try CLI.files(in: out).contains { $0.hasPrefix("countdown-4km-day@1x-") })
    }

    @Test("a polyline from standard input, precision 5 and 6 read differently")
    func polylineFromStdin() throws {
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let polyline = Data("_p~iF~ps|U_ulLnnqC_mqNvxq`@".utf8)
        let five = try CLI.run(["route", "-", "--polyline5", "--out", "five", "--themes", "night", "--scales", "1"], in: folder, input: polyline)
        let six = try CLI.run(["route", "-", "--polyline6", "--out", "six", "--themes", "night", "--scales", "1"], in: folder, input: polyline)
        #expect(five.status == 0 && six.status == 0, "\(five.stderr) \(six.stderr)")
        // Precision 6 reads the same numbers 10× smaller: a route of ~1/10 the length, with fewer markers.
        #expect(five.stdout != six.stdout)
    }

    @Test(
        "bad input: one line naming the problem and where, a non-zero exit, nothing written",
        arguments: [
            ("notjson.geojson", "{ this is not json", ["not valid JSON"]),
            ("notxml.gpx", "<gpx><trk><trkseg><trkpt lat=\"1\" lon=\"2\"></trkpt>", ["line"]),
            ("noline.geojson", #"{"type": "Point", "coordinates": [1, 2]}"#, ["no line"]),
            ("onepoint.geojson", #"{"type": "LineString", "coordinates": [[1, 2], [1, 2]]}"#, ["2 distinct points"]),
            ("latitude.geojson", #"{"type": "LineString", "coordinates": [[1, 2], [1, 97.2]]}"#, ["coordinate 2", "97.2", "out of range"]),
            ("longitude.geojson", #"{"type": "LineString", "coordinates": [[1, 2], [181, 2]]}"#, ["coordinate 2", "181", "out of range"]),
            ("nan.geojson", #"{"type": "LineString", "coordinates": [[1, 2], [NaN, 2]]}"#, ["coordinate 2"]),
            ("string.geojson", #"{"type": "LineString", "coordinates": [[1, 2], ["3", 2]]}"#, ["coordinate 2"]),
            (
                "feature.geojson",
                #"{"type": "FeatureCollection", "features": [{"type": "Feature", "geometry": {"type": "LineString", "coordinates": [[1, 2], [3, 4]]}}, {"type": "Feature", "geometry": {"type": "LineString", "coordinates": [[1, 2], [3, 4], [5, 95]]}}]}"#,
                ["feature 2", "coordinate 3", "95"]
            ),
            ("nopoints.gpx", "<gpx version=\"1.1\"><trk><trkseg></trkseg></trk></gpx>", ["no track or route points"]),
            (
                "nanlat.gpx", "<gpx version=\"1.1\"><trk><trkseg><trkpt lat=\"NaN\" lon=\"2\"/><trkpt lat=\"1\" lon=\"3\"/></trkseg></trk></gpx>",
                ["NaN"]
            ),
            ("empty.gpx", "", ["empty"]),
        ])
    func badInput(name: String, content: String, fragments: [String]) throws {
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data(content.utf8).write(to: folder.appendingPathComponent(name))
        let run = try CLI.run(["route", name, "--out", "out"], in: folder)
        #expect(run.status != 0)
        #expect(run.stdout.isEmpty)
        #expect(run.stderr.split(separator: "\n").count == 1, "\(run.stderr)")
        for fragment in fragments { #expect(run.stderr.contains(fragment), "\(run.stderr) lacks \(fragment)") }
        #expect(try CLI.files(in: folder) == [name], "nothing written")
    }

    @Test("an invalid polyline character is named with its position")
    func badPolyline() throws {
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let run = try CLI.run(["route", "-", "--polyline5", "--out", "out"], in: folder, input: Data("_p~iF~ps|U _ulL".utf8))
        #expect(run.status != 0)
        #expect(run.stderr.split(separator: "\n").count == 1 && run.stderr.contains("11"), "\(run.stderr)")
        #expect(try CLI.files(in: folder).isEmpty)
    }

    @Test("a 200 MB file is refused at once, without reading it")
    func hugeFile() throws {
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("huge.geojson")
        #expect(FileManager.default.createFile(atPath: path.path, contents: Data("{".utf8)))
        let handle = try FileHandle(forWritingTo: path)
        try handle.truncate(atOffset: 200_000_000)  // sparse: no 200 MB of disk
        try handle.close()
        let run = try CLI.run(["route", "huge.geojson", "--out", "out"], in: folder)
        #expect(run.status != 0)
        #expect(run.stderr.split(separator: "\n").count == 1 && run.stderr.contains("limit"), "\(run.stderr)")
        #expect(try CLI.files(in: folder) == ["huge.geojson"])
    }

    @Test(
        "bad options are refused before any work",
        arguments: [
            (["--themes", "dusk"], "dusk"), (["--scales", "5"], "5"), (["--scales", "1,x"], "x"),
            (["--unit", "furlong"], "furlong"), (["--polyline5", "--polyline6"], "together"), (["--locale", "fa"], "--locale fa"),
            (["--interval", "0.25"], "--interval must be a multiple of 0.1"), (["--interval", "0"], "--interval must be from 0.1"),
            (["--base-url", "cdn.example.com/ride"], "--base-url"), (["--base-url", "https://example.com/a b"], "--base-url"),
            (["--target", "ios", "--scales", "3"], "--scales is for --target maplibre"), (["--target", "web", "--themes", "day"], "--themes"),
            (["--target", "android", "--no-sprites"], "--no-sprites"), (["--target", "windows"], "windows"), (["--scales", "1.25"], "1.25"),
            (["--format", "svg"], "--format svg: --target maplibre takes png"),
        ])
    func badOptions(extra: [String], fragment: String) throws {
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let run = try CLI.run(["route", Repository.sharedRoutes.appendingPathComponent("route.gpx").path, "--out", "out"] + extra, in: folder)
        #expect(run.status != 0)
        #expect(run.stderr.split(separator: "\n").count == 1 && run.stderr.contains(fragment), "\(run.stderr)")
        #expect(try CLI.files(in: folder).isEmpty)
    }

    @Test("a run killed at any moment leaves the previous output whole, and the next run cleans up")
    func killedRun() throws {
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let out = folder.appendingPathComponent("out")
        #expect(try CLI.run(["route", Repository.sharedRoutes.appendingPathComponent("route.gpx").path, "--out", "out"], in: folder).status == 0)
        let previous = try snapshot(out)
        // A long straight route: thousands of images, several seconds of drawing, so every kill below
        // lands while the run is drawing.
        let long = #"{"type": "LineString", "coordinates": [[10, 45], [10, 50], [10, 55]]}"#
        try Data(long.utf8).write(to: folder.appendingPathComponent("long.geojson"))
        var killed = 0
        for delay in [0.05, 0.3, 0.8, 1.5] {
            let process = Process()
            process.executableURL = CLI.executable
            process.arguments = ["route", "long.geojson", "--out", "out", "--scales", "1,2,3"]
            process.currentDirectoryURL = folder
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            Thread.sleep(forTimeInterval: delay)
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            #expect(process.terminationReason == .uncaughtSignal, "the run finished within \(delay) s; the route is too short")
            if process.terminationReason == .uncaughtSignal { killed += 1 }
            // Everything the earlier run published is there, byte for byte; the killed run left at
            // most a hidden staging folder.
            #expect(try snapshot(out) == previous, "killed after \(delay) s: the output changed")
            let hidden = try CLI.files(in: out).filter { $0.hasPrefix(".") }
            #expect(hidden.allSatisfy { $0.hasPrefix(".markerpaint-staging-") }, "\(hidden)")
        }
        #expect(killed == 4)
        // The next successful run publishes and removes what the killed runs left.
        #expect(try CLI.run(["route", "long.geojson", "--out", "out", "--scales", "1"], in: folder).status == 0)
        #expect(try CLI.files(in: folder) == ["long.geojson", "out"])
        #expect(try CLI.files(in: out).allSatisfy { !$0.hasPrefix(".") }, "a staging folder was left behind")
        let manifest = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: out.appendingPathComponent("manifest.json"))) as? [String: Any])
        let recorded = try #require(manifest["files"] as? [String: String])
        #expect(Set(recorded.keys).union(["manifest.json"]) == Set(try CLI.files(in: out)), "exactly the recorded files remain")
    }

    /// The visible files of a folder and their bytes.
    private func snapshot(_ folder: URL) throws -> [String: Data] {
        try Dictionary(
            uniqueKeysWithValues: CLI.files(in: folder).filter { !$0.hasPrefix(".") }.map {
                ($0, try Data(contentsOf: folder.appendingPathComponent($0)))
            })
    }
}

@Suite("markerpaint route on a terminal")
struct RouteProgressTests {
    @Test("on a terminal a progress bar shows; the summary still ends the output")
    func progressBarOnTerminal() throws {
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data(#"{"type": "LineString", "coordinates": [[10, 45], [10, 45.5]]}"#.utf8)
            .write(to: folder.appendingPathComponent("line.geojson"))
        // script(1) runs the command on a pseudo-terminal, as a person would see it.
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/script")
        process.arguments = ["-qec", "\(CLI.executable.path) route line.geojson --out out --scales 1", "/dev/null"]
        process.currentDirectoryURL = folder
        let output = Pipe()
        process.standardOutput = output
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "\(text)")
        #expect(text.contains("] ") && text.contains("/") && text.contains("images\r"), "no progress bar in \(text.debugDescription)")
        #expect(text.contains("#"))
        #expect(text.contains("rendered"))
    }
}
