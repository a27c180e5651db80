import Foundation
import MarkerMap
import MarkerOutput
import MarkerPixels
import MarkerRender
import RouteModel
import RouteFormats
import RoutePlacement
import MarkerSpec
import MarkerPNG
import SystemPackage
import TestSupport
import Testing

/// `style.json` loaded as it is by MapLibre Native (PyPI's mapli, which `.ci/setup` installs),
/// rendered offline on Mesa: every marker must come out as its own PNG, pixel for pixel.
@Suite("style.json in MapLibre Native", .serialized)
struct StyleRenderTests {
    static let renderScript = Python.mapScript("render_style.py")
    /// Logical pixels around each marker: wider than any marker here, and at zoom 22 (a few
    /// centimetres a pixel) no other marker comes within the view.
    static let viewSize = 256
    static let zoom = 22

    struct Feature {
        let coordinate: (longitude: Double, latitude: Double)
        let icon: [String: String]
        let isPin: Bool
        let minzoom: Int
    }

    @Test(
        "every marker and pin of a real route is drawn by MapLibre Native as its PNG, in each theme, at 1x and @2x",
        arguments: ["korita-zbevnica.gpx", "cerknicko-jezero.gpx"])
    func everyMarkerAsItsPNG(route: String) async throws {
        let folder = try BatchFixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let out = folder + "/out"
        _ = try await RouteBatch(route: try Route.load(path: Repository.sharedRoute(route), format: nil), options: RouteBatch.Options())
            .write(to: FilePath(out), threads: 2)
        let geojson = try #require(try BatchFixtures.json(out + "/markers.geojson") as? [String: Any])
        let features = try #require(geojson["features"] as? [[String: Any]]).map { feature in
            let point = (feature["geometry"] as? [String: Any])?["coordinates"] as? [Double] ?? []
            let icon = (feature["properties"] as? [String: Any])?["icon"] as? [String: String] ?? [:]
            let isPin = (feature["properties"] as? [String: Any])?["kind"] as? String == "pin"
            let minzoom = (feature["properties"] as? [String: Any])?["minzoom"] as? Int ?? 0
            return Feature(coordinate: (point.first ?? .nan, point.last ?? .nan), icon: icon, isPin: isPin, minzoom: minzoom)
        }
        let manifest = try #require(try BatchFixtures.json(out + "/manifest.json") as? [String: Any])
        // The route's waypoints are pins, recorded beside the markers' images.
        let images = try #require(manifest["images"] as? [[String: Any]]) + (manifest["pictures"] as? [[String: Any]] ?? [])
        try #require(features.count >= 5)

        // Markers, then pins: a pin may stand a few metres from a marker, in the same view at zoom 22.
        for (theme, pins) in [("day", false), ("night", false), ("day", true), ("night", true)] {
            // The style shows its first theme; a theme switch shows another theme's layers and hides the rest.
            var style = try #require(try BatchFixtures.json(out + "/style.json") as? [String: Any])
            let kind = pins ? "markerpaint-pins-" : "markerpaint-markers-"
            style["layers"] = try #require(style["layers"] as? [[String: Any]]).map { layer in
                var layer = layer
                var layout = layer["layout"] as? [String: Any] ?? [:]
                let id = layer["id"] as? String ?? ""
                if id.hasPrefix("markerpaint-callouts-") {
                    // The style as written: the theme's callout layer visible, selecting none.
                    layout["visibility"] = id.hasSuffix("-\(theme)") ? "visible" : "none"
                } else {
                    layout["visibility"] = id == kind + theme ? "visible" : "none"
                }
                layer["layout"] = layout
                return layer
            }
            let stylePath = "\(folder)/style-\(theme)-\(pins).json"
            try JSONSerialization.data(withJSONObject: style).write(to: URL(fileURLWithPath: stylePath))
            let shown = features.filter { $0.isPin == pins }
            if pins { #expect(shown.count == (route == "korita-zbevnica.gpx" ? 2 : 7)) }

            for ratio in [1, 2] {
                let renders = "\(folder)/renders-\(theme)-\(ratio)-\(pins)"
                try FileManager.default.createDirectory(atPath: renders, withIntermediateDirectories: true)
                try await Self.render(style: stylePath, into: renders, ratio: ratio, at: shown.map(\.coordinate))
                for (index, feature) in shown.enumerated() {
                    let icon = try #require(feature.icon[theme])
                    if feature.minzoom > Self.zoom {
                        // A pin on a start or an end's very point waits for good: the filter draws nothing there.
                        let rendered = try PNGDecoder.decode([UInt8](Data(contentsOf: URL(fileURLWithPath: "\(renders)/\(index).png"))))
                        let drawn = (0..<rendered.height).reduce(0) { sum, y in sum + (0..<rendered.width).filter { rendered[$0, y].a != 0 }.count }
                        #expect(feature.isPin && drawn == 0, "\(icon): hidden for good, yet \(drawn) pixels drawn")
                        continue
                    }
                    let file = try #require(images.first { $0["sprite"] as? String == icon && $0["scale"] as? Int == ratio }?["file"] as? String)
                    let expected = try PNGDecoder.decode([UInt8](Data(contentsOf: URL(fileURLWithPath: "\(out)/\(file)"))))
                    let anchor = try #require(images.first { $0["file"] as? String == file }?["anchor"] as? [String: Int])
                    let rendered = try PNGDecoder.decode([UInt8](Data(contentsOf: URL(fileURLWithPath: "\(renders)/\(index).png"))))
                    let centre = Self.viewSize * ratio / 2
                    let left = centre - (anchor["x"] ?? 0)
                    let top = centre - (anchor["y"] ?? 0)
                    var differing = 0
                    var stray = 0
                    for y in 0..<rendered.height {
                        for x in 0..<rendered.width {
                            let inside = (left..<left + expected.width).contains(x) && (top..<top + expected.height).contains(y)
                            if inside {
                                if !Self.close(rendered[x, y], expected[x - left, y - top]) { differing += 1 }
                            } else if rendered[x, y].a != 0 {
                                stray += 1
                            }
                        }
                    }
                    #expect(differing == 0, "\(file): \(differing) pixels differ from the PNG, \(theme) @\(ratio)x")
                    #expect(stray == 0, "\(file): \(stray) pixels drawn outside it, \(theme) @\(ratio)x")
                }
            }
        }
    }

    @Test(
        "the MapLibre GL JS snippet of docs/routes.md shows the markers the filter shows, in MapLibre GL JS in Chromium",
        arguments: ["1", "0.1"])
    func glJSSnippet(interval: String) async throws {
        let folder = try BatchFixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let out = folder + "/out"
        var options = RouteBatch.Options()
        // 0.1 makes readings in tenths (the markers' labels and ids), where 1 reads whole numbers.
        options.route.interval = try MarkerInterval(interval)
        _ = try await RouteBatch(route: try Route.load(path: Repository.sharedRoute("korita-zbevnica.gpx"), format: nil), options: options)
            .write(to: FilePath(out), threads: 2)
        struct Shown: Decodable {
            let zoom: Double
            let labels: [String]
        }
        let output = try await Python.run([Python.mapScript("gl_js_snippet.py"), out, folder + "/gl-js.png"])
        let shown = try JSONDecoder().decode(Shown.self, from: Data(output.utf8))
        let geojson = try #require(try BatchFixtures.json(out + "/markers.geojson") as? [String: Any])
        let properties = try #require(geojson["features"] as? [[String: Any]]).map { $0["properties"] as? [String: Any] ?? [:] }
        let expected = properties.filter { ($0["zooms"] as? [Int] ?? []).contains(Int(shown.zoom.rounded(.down))) }
        #expect(!shown.labels.isEmpty)
        #expect(shown.labels.sorted() == expected.compactMap { $0["label"] as? String }.sorted())
    }

    @Test("the tap snippet of docs/routes.md in MapLibre GL JS: a tap on a pin opens its callout, a tap beside it closes it")
    func glJSTap() async throws {
        // The script runs the snippet as docs/routes.md gives it.
        let script = try String(contentsOfFile: Python.mapScript("gl_js_tap.py"), encoding: .utf8)
        let docs = try String(contentsOfFile: Repository.path("docs/routes.md"), encoding: .utf8)
        let snippet = try #require(script.components(separatedBy: "TAP = \"\"\"\n").last?.components(separatedBy: "\"\"\"").first)
        #expect(snippet.count > 200 && docs.contains(snippet), "docs/routes.md does not hold the snippet the test runs")

        let folder = try BatchFixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let out = folder + "/out"
        _ = try await RouteBatch(route: try Route.load(path: Repository.sharedRoute("cerknicko-jezero.gpx"), format: nil), options: RouteBatch.Options())
            .write(to: FilePath(out), threads: 2)
        struct Shown: Decodable {
            let callouts: [Int]
        }
        let output = try await Python.run([Python.mapScript("gl_js_tap.py"), out, "7", folder + "/tap.png"])
        let shown = try JSONDecoder().decode([Shown].self, from: Data(output.utf8))
        #expect(shown.map(\.callouts) == [[7], [], [7]])
    }

    @Test(
        "MapLibre Native draws exactly the markers whose minzoom allows at each zoom, none over another",
        arguments: [("korita-zbevnica.gpx", [8, 10, 11, 12, 13, 14]), ("city tour", [11, 12, 13, 14])])
    func markersByZoom(route name: String, zooms: [Int]) async throws {
        let counts = try await Self.drawnByZoom(route: name, zooms: zooms, bearing: 0)
        // The zooms show more markers as they go in, and the highest shows several.
        #expect(counts == counts.sorted() && (counts.last ?? 0) > 3, "\(counts)")
    }

    @Test(
        "course-up: MapLibre Native turned to a bearing draws exactly the markers whose minzoomTurned allows, upright at their turned points, none over another",
        arguments: [("korita-zbevnica.gpx", 45.0), ("korita-zbevnica.gpx", 160), ("city tour", 90), ("city tour", 300)])
    func markersTurned(route name: String, bearing: Double) async throws {
        let counts = try await Self.drawnByZoom(route: name, zooms: [11, 12, 13, 14], bearing: bearing)
        #expect(counts == counts.sorted() && (counts.last ?? 0) > 3, "\(counts)")
    }

    @Test("pitched 30° (below the 40° measured), the course-up style's pictures meet at no bearing; the north-up style's do, turned flat")
    func pitched() async throws {
        let folder = try BatchFixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let route = try Route.load(path: Repository.sharedRoute("korita-zbevnica.gpx"), format: nil)
        var reports: [String: [String: Any]] = [:]
        for placement in ScreenPlacement.Rotation.allCases {
            var options = RouteBatch.Options()
            options.route.themes = [.day]
            options.route.placement = placement
            let out = "\(folder)/\(placement.rawValue)"
            _ = try await RouteBatch(route: route, options: options).write(to: FilePath(out), threads: 2)
            let start = try #require(try WrittenMap(folder: out).markers.first)
            let pitch = placement == .courseUp ? "30" : "0"
            let output = try await Python.run([
                Python.mapScript("pitch_reach.py"), out + "/style.json", "\(start.longitude),\(start.latitude)", "10,11,12,13", "0,60,150,285",
                pitch, "512",
            ])
            let report = try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: [String: Any]] ?? [:]
            reports[placement.rawValue] = report["\(pitch).0"]
        }
        #expect(reports["course-up"]?["pixels"] as? Int == 0, "\(reports)")
        #expect((reports["course-up"]?["drawn"] as? Int ?? 0) > 10_000, "\(reports)")
        #expect((reports["north-up"]?["pixels"] as? Int ?? 0) > 0, "the north-up minzooms turned meet: \(reports)")
    }

    @Test("a tapped pin's callout: the callout layer selecting it draws its PNG, its tail's tip above the pin's head; selecting none draws none")
    func selectedCallout() async throws {
        let folder = try BatchFixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let out = folder + "/out"
        _ = try await RouteBatch(route: try Route.load(path: Repository.sharedRoute("cerknicko-jezero.gpx"), format: nil), options: RouteBatch.Options())
            .write(to: FilePath(out), threads: 2)
        let geojson = try #require(try BatchFixtures.json(out + "/markers.geojson") as? [String: Any])
        let pins = try #require(geojson["features"] as? [[String: Any]]).filter { ($0["properties"] as? [String: Any])?["kind"] as? String == "pin" }
        try #require(pins.count == 7)
        let manifest = try #require(try BatchFixtures.json(out + "/manifest.json") as? [String: Any])
        let pictures = try #require(manifest["pictures"] as? [[String: Any]])
        let size = 320
        for theme in ["day", "night"] {
            for (selected, ratio) in [(3, 1), (5, 2), (0, 1)] {
                // Only the theme's callout layer, selecting pin `selected` as an app does on a tap.
                var style = try #require(try BatchFixtures.json(out + "/style.json") as? [String: Any])
                style["layers"] = try #require(style["layers"] as? [[String: Any]]).map { layer in
                    var layer = layer
                    var layout = layer["layout"] as? [String: Any] ?? [:]
                    let id = layer["id"] as? String ?? ""
                    layout["visibility"] = id == "markerpaint-callouts-\(theme)" ? "visible" : "none"
                    layer["layout"] = layout
                    if id.hasPrefix("markerpaint-callouts-") { layer["filter"] = ["==", ["get", "pin"], selected] }
                    return layer
                }
                let stylePath = "\(folder)/style-\(theme)-\(selected).json"
                try JSONSerialization.data(withJSONObject: style).write(to: URL(fileURLWithPath: stylePath))
                let renders = "\(folder)/callout-\(theme)-\(selected)"
                try FileManager.default.createDirectory(atPath: renders, withIntermediateDirectories: true)
                // Centred on every pin: only the selected one's callout may show.
                let points = pins.map { pin in
                    let point = (pin["geometry"] as? [String: Any])?["coordinates"] as? [Double] ?? []
                    return "\(point.first ?? .nan),\(point.last ?? .nan)"
                }
                try await Python.run([Self.renderScript, stylePath, renders, String(ratio), String(Self.zoom), String(size)] + points)
                for (index, pin) in pins.enumerated() {
                    let properties = pin["properties"] as? [String: Any] ?? [:]
                    let rendered = try PNGDecoder.decode([UInt8](Data(contentsOf: URL(fileURLWithPath: "\(renders)/\(index).png"))))
                    guard properties["pin"] as? Int == selected else {
                        let drawn = (0..<rendered.height).reduce(0) { sum, y in sum + (0..<rendered.width).filter { rendered[$0, y].a != 0 }.count }
                        #expect(drawn == 0, "pin \(properties["pin"] ?? "?"): \(drawn) pixels of a callout not selected, \(theme)")
                        continue
                    }
                    let id = try #require((properties["callout"] as? [String: String])?[theme])
                    let picture = try #require(pictures.first { $0["sprite"] as? String == id && $0["scale"] as? Int == ratio })
                    let expected = try PNGDecoder.decode(
                        [UInt8](Data(contentsOf: URL(fileURLWithPath: "\(out)/\(try #require(picture["file"] as? String))"))))
                    let anchor = try #require(picture["anchor"] as? [String: Double])
                    // The tail's tip stands the pin's height and 2 points above the point.
                    let left = size * ratio / 2 - Int((anchor["x"] ?? 0).rounded())
                    let top = size * ratio / 2 - Int(PinLayer.calloutLift) * ratio - Int((anchor["y"] ?? 0).rounded())
                    var (differing, stray) = (0, 0)
                    for y in 0..<rendered.height {
                        for x in 0..<rendered.width {
                            if (left..<left + expected.width).contains(x) && (top..<top + expected.height).contains(y) {
                                if !Self.close(rendered[x, y], expected[x - left, y - top]) { differing += 1 }
                            } else if rendered[x, y].a != 0 {
                                stray += 1
                            }
                        }
                    }
                    #expect(differing == 0, "callout of pin \(selected), \(theme) @\(ratio)x: \(differing) pixels differ from its PNG")
                    #expect(stray == 0, "callout of pin \(selected), \(theme) @\(ratio)x: \(stray) pixels drawn outside it")
                }
            }
        }
    }

    /// Writes `name`'s batch (course-up where `bearing` is not 0), renders its `style.json` around the
    /// route's start at each of `zooms` turned to `bearing`, and checks the render against the
    /// markers the style's filter shows, each its PNG upright with its anchor on its turned point:
    /// no two pictures' pixels over each other, and the render drawn where they are. Returns how many
    /// markers each zoom shows.
    static func drawnByZoom(route name: String, zooms: [Int], bearing: Double) async throws -> [Int] {
        let folder = try BatchFixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let out = folder + "/out"
        let route = name == "city tour" ? MadeRoutes.cityTour : try Route.load(path: Repository.sharedRoute(name), format: nil)
        var options = RouteBatch.Options()
        options.route.themes = [.day]
        options.route.placement = bearing == 0 ? .northUp : .courseUp
        _ = try await RouteBatch(route: route, options: options).write(to: FilePath(out), threads: 2)
        let map = try WrittenMap(folder: out)
        let manifest = try #require(map.manifest["images"] as? [[String: Any]]) + (map.manifest["pictures"] as? [[String: Any]] ?? [])
        let geojson = try #require(try BatchFixtures.json(out + "/markers.geojson") as? [String: Any])
        let icons = try #require(geojson["features"] as? [[String: Any]]).map { ($0["properties"] as? [String: Any])?["icon"] as? [String: String] }
        // Each marker's @1x picture and anchor, as the style asks the sprite for it.
        var pictures: [(png: RGBAImage, anchor: (x: Int, y: Int))] = []
        for icon in icons {
            let image = try #require(manifest.first { $0["sprite"] as? String == icon?["day"] && $0["scale"] as? Int == 1 })
            let anchor = try #require(image["anchor"] as? [String: Int])
            let png = try PNGDecoder.decode([UInt8](Data(contentsOf: URL(fileURLWithPath: "\(out)/\(try #require(image["file"] as? String))"))))
            pictures.append((png, (anchor["x"] ?? 0, anchor["y"] ?? 0)))
        }
        // A view around the route's start, wide enough to hold the whole route at the lower zooms.
        let size = 1024
        let centre = 0
        var drawnAt: [Int] = []
        for zoom in zooms {
            let renders = "\(folder)/z\(zoom)"
            try FileManager.default.createDirectory(atPath: renders, withIntermediateDirectories: true)
            try await Python.run(
                [
                    Self.renderScript, out + "/style.json", renders, "1", String(zoom), String(size),
                    "\(map.markers[centre].longitude),\(map.markers[centre].latitude)", "--bearing", String(bearing),
                ])
            let rendered = try PNGDecoder.decode([UInt8](Data(contentsOf: URL(fileURLWithPath: renders + "/0.png"))))
            try #require(rendered.width == size && rendered.height == size)

            // What the map should show: each marker shown at this zoom, its PNG with its anchor on its
            // turned point (to the nearest pixel), alpha over alpha; and where two pictures' pixels meet.
            var expected = [Double](repeating: 0, count: size * size)
            var owner = [Int](repeating: -1, count: size * size)
            var overlapping = 0
            var drawn = 0
            for index in bearing == 0 ? map.shown(at: zoom) : map.shownTurned(at: zoom) {
                let (dx, dy) = map.offset(centre, index, zoom: zoom, bearing: bearing)
                let (png, anchor) = pictures[index]
                let left = size / 2 + Int(dx.rounded()) - anchor.x
                let top = size / 2 + Int(dy.rounded()) - anchor.y
                for y in 0..<png.height where (0..<size).contains(top + y) {
                    for x in 0..<png.width where (0..<size).contains(left + x) {
                        let alpha = Double(png[x, y].a) / 255
                        let at = (top + y) * size + left + x
                        expected[at] = alpha + expected[at] * (1 - alpha)
                        if png[x, y].a >= 128 {
                            if owner[at] >= 0 && owner[at] != index { overlapping += 1 }
                            owner[at] = index
                        }
                    }
                }
                drawn += 1
            }
            drawnAt.append(drawn)
            #expect(overlapping == 0, "zoom \(zoom), bearing \(bearing): \(overlapping) pixels of one picture over another's")
            // A marker drawn or left out wrongly differs over its whole pill (hundreds of pixels). A
            // picture half a pixel from a pixel's edge may be drawn a pixel from where it is rounded
            // to here: a pixel counts as differing only if no expected pixel next to it matches.
            var differing = 0
            for y in 0..<size {
                for x in 0..<size {
                    let alpha = Double(rendered[x, y].a) / 255
                    guard abs(alpha - expected[y * size + x]) > 0.5 else { continue }
                    let matched = (max(0, y - 1)...min(size - 1, y + 1)).contains { ny in
                        (max(0, x - 1)...min(size - 1, x + 1)).contains { nx in abs(alpha - expected[ny * size + nx]) <= 0.5 }
                    }
                    if !matched { differing += 1 }
                }
            }
            #expect(differing <= 10, "zoom \(zoom), bearing \(bearing): \(differing) pixels differ from the markers the filter shows")
        }
        return drawnAt
    }

    /// Renders `style` around each of `points` with MapLibre Native, into `<folder>/<index>.png`.
    static func render(style: String, into folder: String, ratio: Int, at points: [(longitude: Double, latitude: Double)]) async throws {
        try await Python.run(
            [renderScript, style, folder, String(ratio), String(zoom), String(viewSize)] + points.map { "\($0.longitude),\($0.latitude)" })
    }

    /// Equal but for one 8-bit step per channel (premultiplied blending rounds).
    static func close(_ a: RGBA, _ b: RGBA) -> Bool {
        abs(Int(a.r) - Int(b.r)) <= 1 && abs(Int(a.g) - Int(b.g)) <= 1 && abs(Int(a.b) - Int(b.b)) <= 1 && abs(Int(a.a) - Int(b.a)) <= 1
    }
}
