import Foundation
import MarkerOutput
import MarkerPixels
import MarkerRender
import RouteModel
import RouteFormats
import OfflineCorridor
import MarkerSpec
import MarkerPNG
import RoutePlacement
import SystemPackage
import TestSupport
import Testing

/// `index.html` opened from the output folder in headless Chromium (Debian's, which `.ci/setup`
/// installs): what it draws at each zoom is what the style's filter shows, in the theme asked for.
@Suite("Preview page in Chromium", .serialized)
struct PreviewPageTests {
    struct State: Decodable {
        struct Offline: Decodable {
            let zoom: Int
            let tileZoom: Int
            let tiles: Int
            let box: Int
            let drawn: Int
        }
        let theme: String
        let zoom: Double
        let filterZoom: Int
        let bearing: Double
        let shown: [String]
        let offline: Offline?
    }

    struct Feature {
        let label: String
        let zooms: [Int]
        let coordinate: [Double]
        let icon: [String: String]
    }

    static func batch(_ route: String, into folder: String) async throws -> [Feature] {
        _ = try await RouteBatch(route: try Route.load(path: Repository.sharedRoute(route), format: nil), options: RouteBatch.Options())
            .write(to: FilePath(folder), threads: 2)
        let geojson = try #require(try BatchFixtures.json(folder + "/markers.geojson") as? [String: Any])
        return try #require(geojson["features"] as? [[String: Any]]).map { feature in
            let properties = feature["properties"] as? [String: Any] ?? [:]
            return Feature(
                label: properties["label"] as? String ?? "", zooms: properties["zooms"] as? [Int] ?? [],
                coordinate: (feature["geometry"] as? [String: Any])?["coordinates"] as? [Double] ?? [],
                icon: properties["icon"] as? [String: String] ?? [:])
        }
    }

    @Test("at every zoom asked for, the page draws exactly the markers the style's filter shows", arguments: [nil, 5.0, 11.5, 14.0, 16.2])
    func markersByZoom(zoom: Double?) async throws {
        let folder = try BatchFixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let features = try await Self.batch("korita-zbevnica.gpx", into: folder + "/out")
        // Zoomed out far enough (and at the fitted view) the whole route is on the page.
        let hash = zoom.map { "#z=\($0)&lon=14.1445&lat=45.3806&theme=night" } ?? ""
        let state = try Self.state(of: "\(folder)/out/index.html\(hash)", size: zoom.map { $0 > 12 ? "4000,4000" : "1000,700" } ?? "1000,700")
        if let zoom { #expect(state.zoom == zoom) }
        #expect(state.filterZoom == Int(state.zoom.rounded(.down)))
        #expect(state.theme == (zoom == nil ? "day" : "night"))
        let expected = features.filter { $0.zooms.contains(state.filterZoom) }.map(\.label)
        if zoom ?? 0 > 12 {
            // Zoomed in, only what is near the centre is on the page: a subset, and all of it shown by the filter.
            #expect(Set(state.shown).isSubset(of: Set(expected)))
            #expect(!state.shown.isEmpty)
        } else {
            #expect(state.shown.sorted() == expected.sorted())
        }
    }

    @Test("turned, the page draws the markers minzoomTurned shows, fewer than north up where they would meet", arguments: [45.0, 90, 300])
    func turnedMarkers(bearing: Double) async throws {
        let folder = try BatchFixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        _ = try await Self.batch("korita-zbevnica.gpx", into: folder + "/out")
        let geojson = try #require(try BatchFixtures.json(folder + "/out/markers.geojson") as? [String: Any])
        let properties = try #require(geojson["features"] as? [[String: Any]]).map { $0["properties"] as? [String: Any] ?? [:] }
        // Zoom 11: the whole route on the page, and markers that turned would meet.
        let view = "#z=11&lon=14.1445&lat=45.3806&theme=day"
        let turned = try Self.state(of: "\(folder)/out/index.html\(view)&b=\(bearing)", size: "1000,700")
        let north = try Self.state(of: "\(folder)/out/index.html\(view)", size: "1000,700")
        #expect(turned.bearing == bearing && north.bearing == 0)
        let expected = properties.filter { ($0["minzoomTurned"] as? Int ?? 99) <= 11 }.compactMap { $0["label"] as? String }
        #expect(turned.shown.sorted() == expected.sorted())
        #expect(turned.shown.count < north.shown.count, "turned \(turned.shown), north up \(north.shown)")
    }

    @Test("a marker is drawn with its PNG's pixels, its anchor on the point, @2x on a 2x screen", arguments: [1, 2])
    func markerPixels(deviceScale: Int) async throws {
        let folder = try BatchFixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let features = try await Self.batch("route.gpx", into: folder + "/out")
        let loop = try #require(features.first { $0.label.hasPrefix("start0km_end") })
        let manifest = try #require(try BatchFixtures.json(folder + "/out/manifest.json") as? [String: Any])
        let images = try #require(manifest["images"] as? [[String: Any]])
        let image = try #require(images.first { $0["sprite"] as? String == loop.icon["day"] && $0["scale"] as? Int == deviceScale })
        let png = try PNGDecoder.decode([UInt8](try Data(contentsOf: URL(fileURLWithPath: folder + "/out/" + (image["file"] as! String)))))
        let anchor = try #require(image["anchor"] as? [String: Int])

        let shot = folder + "/shot.png"
        let url = "\(folder)/out/index.html#z=18&lon=\(loop.coordinate[0])&lat=\(loop.coordinate[1])&theme=day"
        try Self.chromium(["--window-size=400,300", "--force-device-scale-factor=\(deviceScale)", "--screenshot=\(shot)"], url: url)
        let screen = try PNGDecoder.decode([UInt8](try Data(contentsOf: URL(fileURLWithPath: shot))))
        #expect(screen.width == 400 * deviceScale)
        // The opaque pixels of the marker (the label's cores) are exactly where the PNG has them.
        let left = 200 * deviceScale - (anchor["x"] ?? 0)
        let top = 150 * deviceScale - (anchor["y"] ?? 0)
        var opaque = 0
        var differing = 0
        for y in 0..<png.height {
            for x in 0..<png.width where png[x, y].a == 255 {
                opaque += 1
                let (a, b) = (screen[left + x, top + y], png[x, y])
                if abs(Int(a.r) - Int(b.r)) > 2 || abs(Int(a.g) - Int(b.g)) > 2 || abs(Int(a.b) - Int(b.b)) > 2 { differing += 1 }
            }
        }
        #expect(opaque > 50)
        #expect(differing == 0, "\(differing) of \(opaque) opaque pixels differ")
    }

    @Test("with an offline pack, the page draws the tiles of the zoom it shows and their count against the box's", arguments: [8.0, 10.4, 12.0, 16.0, 18.0])
    func offlineTiles(zoom: Double) async throws {
        let folder = try BatchFixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        var options = RouteBatch.Options()
        options.route.themes = [.day]
        options.route.offline = OfflinePack.Options()
        let batch = try RouteBatch(route: try Route.load(path: Repository.sharedRoute("korita-zbevnica.gpx"), format: nil), options: options)
        _ = try await batch.write(to: FilePath(folder + "/out"), threads: 2)
        let pack = try #require(batch.offline)
        let state = try Self.state(of: "\(folder)/out/index.html#z=\(zoom)&lon=14.1445&lat=45.3806&theme=day", size: "1000,700")
        let offline = try #require(state.offline)
        // The zoom shown, within the pack's: its tiles, one zoom further in for 256-pixel tiles.
        let level = try #require(pack.levels.first { $0.zoom == min(16, max(8, Int(zoom.rounded(.down)))) })
        #expect(offline.zoom == level.zoom && offline.tileZoom == level.zoom + 1)
        #expect(offline.tiles == level.tiles.count && offline.box == level.boxCount)
        #expect(offline.drawn > 0 && offline.drawn <= offline.tiles)
        if zoom < 11 { #expect(offline.drawn == offline.tiles, "zoomed out, every tile is on the page") }
    }

    /// What the page says it drew, read from its `#state` after it has run.
    static func state(of page: String, size: String) throws -> State {
        let dom = try chromium(["--window-size=\(size)", "--dump-dom"], url: page)
        let start = try #require(dom.range(of: "<pre id=\"state\">"))
        let end = try #require(dom.range(of: "</pre>", range: start.upperBound..<dom.endIndex))
        let text = dom[start.upperBound..<end.lowerBound].replacingOccurrences(of: "&quot;", with: "\"")
            .replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">").replacingOccurrences(of: "&amp;", with: "&")
        return try JSONDecoder().decode(State.self, from: Data(text.utf8))
    }

    @Test("tapping a pin opens its callout over it; tapping the map closes it", arguments: ["day", "night"])
    func tapOpensCallout(theme: String) async throws {
        let folder = try BatchFixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        _ = try await Self.batch("cerknicko-jezero.gpx", into: folder + "/out")
        let geojson = try #require(try BatchFixtures.json(folder + "/out/markers.geojson") as? [String: Any])
        let features = try #require(geojson["features"] as? [[String: Any]])
        let pin = try #require(features.first { ($0["properties"] as? [String: Any])?["title"] as? String == "VANSHNG LK" })
        let properties = try #require(pin["properties"] as? [String: Any])
        let number = try #require(properties["pin"] as? Int)
        let point = try #require((pin["geometry"] as? [String: Any])?["coordinates"] as? [Double])
        // The pin's tip at the page's centre: its circle is 20 points above, the map far to the side.
        let page = "\(folder)/out/index.html#z=18&lon=\(point[0])&lat=\(point[1])&theme=\(theme)"
        let shot = folder + "/tap.png"
        let output = try await Python.run([Python.mapScript("preview_tap.py"), page, shot, "0,-20", "-300,150", "0,-20"])
        struct Tapped: Decodable {
            let pins: [Int]
            let selected: Int
            let theme: String
        }
        let states = try JSONDecoder().decode([Tapped].self, from: Data(output.utf8))
        try #require(states.count == 4)
        #expect(states[0].pins.contains(number) && states[0].selected == 0 && states[0].theme == theme)
        #expect(states[1].selected == number, "a tap on the pin opens its callout")
        #expect(states[2].selected == 0, "a tap on the map closes it")
        #expect(states[3].selected == number)
        // Drawn: the callout's own fill above the pin, in the theme's colour: 6 points into the
        // bubble's bottom padding, above its tail (8 tall, its tip 34 points above the point).
        let screenshot = try PNGDecoder.decode([UInt8](Data(contentsOf: URL(fileURLWithPath: shot))))
        let fill = screenshot[screenshot.width / 2, screenshot.height / 2 - 34 - 8 - 6]
        if theme == "day" {
            #expect(fill.r > 240 && fill.g > 240 && fill.b > 240, "\(fill)")
        } else {
            #expect(fill.r < 60 && fill.g < 60 && fill.b < 60, "\(fill)")
        }
    }

    /// Runs headless Chromium on the file `url` (a path, with a fragment if any) and returns its standard output.
    @discardableResult
    static func chromium(_ arguments: [String], url: String) throws -> String {
        try Command.output(
            "/usr/bin/chromium",
            ["--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--virtual-time-budget=5000"] + arguments + ["file://" + url])
    }
}
