import Foundation
import MarkerPixels
import MarkerRender
import RouteModel
import RouteFormats
import MarkerSpec
import SystemPackage
import TestSupport
import Testing

@testable import MarkerOutput
import RoutePlacement
import MarkerPNG

/// The iOS, Android and web targets: every file each platform needs, names legal on it, every
/// scale present, dark variants paired, and the folder replaced only when markerpaint wrote it.
// Serialized: each test starts a pool of two renderers, and some run Chromium or aapt; all at once,
// beside every other suite, they starved the service's timeout tests of CPU in CI.
@Suite("Platform targets", .serialized)
struct PlatformTargetTests {
    /// Two stages (75 km and 123 km): starts, ends, a combined marker where they meet, distances.
    static func twoStages() throws -> TargetContents {
        let route = try Route.load(path: BatchFixtures.twoStages, format: nil)
        return TargetContents(plan: try RouteBatch(route: route, options: RouteBatch.Options()).plan)
    }

    /// Writes `contents` for `target` into a new folder and returns the folder.
    static func write(_ contents: TargetContents, _ target: PlatformTarget) async throws -> String {
        let folder = try BatchFixtures.temporaryFolder()
        _ = try await bundle(contents, target, to: folder)
        return folder
    }

    /// Draws `contents` for `target` into `folder` on a pool of two renderers, as the CLI does.
    @discardableResult
    static func bundle(
        _ contents: TargetContents, _ target: PlatformTarget, format: ImageFormat? = nil, to folder: String
    ) async throws -> PlatformBundle.Summary {
        let pool = try await CPUPool.renderers(threads: 2)
        defer { pool.shutdown() }
        return try await PlatformBundle.write(contents, target: target, format: format, unit: .km, to: FilePath(folder), pool: pool)
    }

    /// Every file under `folder`, by path relative to it.
    static func files(under folder: String) throws -> Set<String> {
        let enumerator = try #require(FileManager.default.enumerator(atPath: folder))
        var files: Set<String> = []
        while let path = enumerator.nextObject() as? String {
            var isFolder: ObjCBool = false
            if FileManager.default.fileExists(atPath: folder + "/" + path, isDirectory: &isFolder), !isFolder.boolValue { files.insert(path) }
        }
        return files
    }

    static func bytes(_ path: String) throws -> [UInt8] { [UInt8](try Data(contentsOf: URL(fileURLWithPath: path))) }

    /// The decoded JSON object at `path`.
    static func object(_ path: String) throws -> [String: Any] { try #require(try BatchFixtures.json(path) as? [String: Any]) }

    @Test("ios: one imageset per marker with Contents.json, @1x–@3x in day and as the dark appearance, each the renderer's PNG")
    func assetCatalog() async throws {
        let contents = try Self.twoStages()
        let folder = try await Self.write(contents, .ios)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let catalog = folder + "/Markers.xcassets"
        let root = try Self.object(catalog + "/Contents.json")
        #expect((root["info"] as? [String: Any])?["version"] as? Int == 1)
        let renderer = try MarkerRenderer()
        var expectedFiles: Set<String> = ["Contents.json"]
        for marker in contents.markers {
            let set = "\(marker.kind.rawValue)-\(marker.label).imageset"
            expectedFiles.insert(set + "/Contents.json")
            let json = try Self.object("\(catalog)/\(set)/Contents.json")
            let images = try #require(json["images"] as? [[String: Any]])
            var slots: Set<String> = []
            var widths: [Double] = []
            var heights: Set<Double> = []
            for image in images {
                #expect(image["idiom"] as? String == "universal")
                let scaleText = try #require(image["scale"] as? String)
                let appearances = image["appearances"] as? [[String: String]]
                let dark = appearances == [["appearance": "luminosity", "value": "dark"]]
                #expect(appearances == nil || dark)
                slots.insert("\(scaleText) \(dark ? "dark" : "any")")
                let file = try #require(image["filename"] as? String)
                expectedFiles.insert("\(set)/\(file)")
                let factor = try #require(Double(scaleText.dropLast()))
                let scale = try #require(MarkerScale(exactly: factor))
                let request = try MarkerRequest(marker: marker, theme: dark ? .night : .day, scale: scale)
                let png = try Self.bytes("\(catalog)/\(set)/\(file)")
                #expect(png == (try renderer.render(request).png), "\(set)/\(file)")
                let decoded = try PNGDecoder.decode(png)
                widths.append(Double(decoded.width) / scale.factor)
                heights.insert(Double(decoded.height) / scale.factor)
            }
            #expect(slots == ["1x any", "2x any", "3x any", "1x dark", "2x dark", "3x dark"], "\(set)")
            // The same size in points at every scale: the pill's width rounds up to whole pixels and
            // to the dot's parity, under 2 px, so under 2pt at @1x.
            #expect(heights.count == 1 && (widths.max() ?? 0) - (widths.min() ?? 0) < 2, "\(set): \(widths) \(heights)")
        }
        // Every file the catalog holds is one its Contents.json files name, and the reverse.
        #expect(try Self.files(under: catalog) == expectedFiles)
        #expect(contents.markers.map(\.kind).contains(.combined))
    }

    @Test("ios in PDF: one vector PDF per appearance, kept as vectors; rendered at @3x it is the @3x PNG but for the shadow's and text's edges")
    func assetCatalogPDF() async throws {
        let contents = TargetContents(markers: [try Marker(kind: .end, distance: 123), try Marker(kind: .distance, distance: 7.5)])
        let folder = try BatchFixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let renderer = try MarkerRenderer()
        let summary = try await Self.bundle(contents, .ios, format: .pdf, to: folder)
        #expect(summary.images == 4)
        let catalog = folder + "/Markers.xcassets"
        for marker in contents.markers {
            let name = "\(marker.kind.rawValue)-\(marker.label)"
            #expect(try Self.files(under: "\(catalog)/\(name).imageset") == ["Contents.json", "\(name).pdf", "\(name)-dark.pdf"])
            let json = try Self.object("\(catalog)/\(name).imageset/Contents.json")
            #expect((json["properties"] as? [String: Bool]) == ["preserves-vector-representation": true])
            let images = try #require(json["images"] as? [[String: Any]])
            #expect(images.map { $0["filename"] as? String } == ["\(name).pdf", "\(name)-dark.pdf"])
            #expect(images.allSatisfy { $0["scale"] == nil && $0["idiom"] as? String == "universal" })
            for (file, theme) in [("\(name).pdf", Theme.day), ("\(name)-dark.pdf", .night)] {
                let path = "\(catalog)/\(name).imageset/\(file)"
                #expect(
                    try Self.bytes(path) == (try renderer.renderDocument(MarkerRequest(marker: marker, theme: theme, scale: 1), format: .pdf).bytes))
                // Xcode renders it at @3x: poppler does the same here, and it is compared with the @3x PNG, anchor on anchor.
                let output = folder + "/rendered"
                _ = try Command.output("/usr/bin/pdftocairo", ["-png", "-transp", "-r", "216", "-singlefile", path, output])
                let rendered = try PNGDecoder.decode(try Self.bytes(output + ".png"))
                let png = try renderer.render(try MarkerRequest(marker: marker, theme: theme, scale: 3))
                let expected = try PNGDecoder.decode(png.png)
                let one = try renderer.render(try MarkerRequest(marker: marker, theme: theme, scale: 1)).image
                let dx = Int(3 * one.anchor.x - png.image.anchor.x)
                let dy = Int(3 * one.anchor.y - png.image.anchor.y)
                var aligned = RGBAImage(width: expected.width, height: expected.height)
                for y in 0..<expected.height {
                    for x in 0..<expected.width where (0..<rendered.width).contains(x + dx) && (0..<rendered.height).contains(y + dy) {
                        aligned[x, y] = rendered[x + dx, y + dy]
                    }
                }
                let result = PixelComparison.compare(expected: expected, actual: aligned, options: .init(threshold: 0.1))
                // The PDF is @1x's layout in vectors, its pill rounded to whole points: `7.5km` is 46pt wide
                // where @3x's is 44.67pt, so 3.3% of pixels differ along its ends; `123km`, 0.4%.
                #expect(result.differingShare <= 0.05, "\(file): \(result.differingPixels) of \(result.totalPixels) pixels differ")
            }
        }
    }

    @Test(
        "android: drawable-{m,h,xh,xxh,xxxh}dpi and drawable-night-* each hold every marker under one legal resource name, night the night theme")
    func androidResources() async throws {
        let contents = try Self.twoStages()
        let folder = try await Self.write(contents, .android)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let res = folder + "/res"
        let densities = ["mdpi": 1.0, "hdpi": 1.5, "xhdpi": 2, "xxhdpi": 3, "xxxhdpi": 4]
        let folders = try FileManager.default.contentsOfDirectory(atPath: res).sorted()
        #expect(Set(folders) == Set(densities.keys.flatMap { ["drawable-\($0)", "drawable-night-\($0)"] }))
        let names = Set(contents.markers.map { AndroidResources.name(of: $0) + ".png" })
        #expect(names.count == contents.markers.count)
        let legal = try Regex("^[a-z][a-z0-9_]*\\.png$")
        let renderer = try MarkerRenderer()
        for name in names { #expect(name.wholeMatch(of: legal) != nil, "\(name)") }
        for (qualifier, factor) in densities {
            for night in [false, true] {
                let drawable = "\(res)/drawable-\(night ? "night-" : "")\(qualifier)"
                #expect(Set(try FileManager.default.contentsOfDirectory(atPath: drawable)) == names)
                for marker in contents.markers {
                    let png = try Self.bytes("\(drawable)/\(AndroidResources.name(of: marker)).png")
                    let request = try MarkerRequest(
                        marker: marker, theme: night ? .night : .day, scale: try #require(MarkerScale(exactly: factor)))
                    #expect(png == (try renderer.render(request).png), "\(drawable) \(marker.label)")
                }
            }
        }
    }

    @Test("android: aapt, Android's resource packager, compiles res/ into every density in day and night, one drawable per marker")
    func androidPackagerAccepts() async throws {
        let contents = try Self.twoStages()
        let folder = try await Self.write(contents, .android)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let manifest = folder + "/AndroidManifest.xml"
        try Data(#"<manifest xmlns:android="http://schemas.android.com/apk/res/android" package="com.example.markers"/>"#.utf8)
            .write(to: URL(fileURLWithPath: manifest))
        let apk = folder + "/markers.apk"
        _ = try Command.output("/usr/bin/aapt", ["package", "-f", "-M", manifest, "-S", folder + "/res", "-F", apk])
        let dump = try Command.output("/usr/bin/aapt", ["dump", "resources", apk])
        #expect(dump.contains("type 1 configCount=10 entryCount=\(contents.markers.count)"), "\(dump.prefix(400))")
        for density in ["mdpi", "hdpi", "xhdpi", "xxhdpi", "xxxhdpi"] {
            #expect(dump.contains("config \(density)-v4:") && dump.contains("config night-\(density)-v8:"), "\(density)")
        }
        for marker in contents.markers { #expect(dump.contains("drawable/\(AndroidResources.name(of: marker)):"), "\(marker.label)") }
        // The packager does refuse what Android does not take: a name with a capital, a dash and a dot.
        let drawable = folder + "/res/drawable-mdpi/"
        try FileManager.default.copyItem(
            atPath: drawable + AndroidResources.name(of: contents.markers[0]) + ".png", toPath: drawable + "Marker-7.5.png")
        #expect(throws: Command.Failure.self) {
            _ = try Command.output("/usr/bin/aapt", ["package", "-f", "-M", manifest, "-S", folder + "/res", "-F", apk])
        }
    }

    @Test("android names: decimal marks become _, every name legal, and labels that would share a name are refused")
    func androidNames() async throws {
        #expect(AndroidResources.name(of: try Marker(kind: .distance, distance: 7.5)) == "marker_distance_7_5km")
        #expect(AndroidResources.name(of: try Marker(kind: .end, distance: 7.5, mark: .comma)) == "marker_end_7_5km")
        let combined = try Marker(combining: [try Marker.Part(kind: .start, distance: 0), try Marker.Part(kind: .end, distance: 8.6)], unit: .nmi)
        #expect(AndroidResources.name(of: combined) == "marker_combined_start0nmi_end8_6nmi")
        #expect(AndroidResources.isLegal(AndroidResources.name(of: combined)))
        let clash = TargetContents(markers: [try Marker(kind: .distance, distance: 7.5), try Marker(kind: .distance, distance: 7.5, mark: .comma)])
        let folder = try BatchFixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        await #expect(throws: OutputError.self) { try await Self.bundle(clash, .android, to: folder) }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder).isEmpty)
    }

    @Test("web: markers.json names every SVG, in CSS pixels (half the @2x SVG's), and places each route marker where the plan does")
    func webBundle() async throws {
        let contents = try Self.twoStages()
        let folder = try await Self.write(contents, .web)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let web = folder + "/web"
        let index = try Self.object(web + "/markers.json")
        #expect(index["unit"] as? String == "km")
        let images = try #require(index["images"] as? [String: [String: Any]])
        #expect(images.count == contents.markers.count)
        var named: Set<String> = ["markers.json"]
        let renderer = try MarkerRenderer()
        for marker in contents.markers {
            let entry = try #require(images["\(marker.kind.rawValue)-\(marker.label)"])
            for theme in [Theme.day, .night] {
                let picture = try #require(entry[theme.name] as? [String: Any])
                let file = try #require(picture["file"] as? String)
                named.insert(file)
                let document = try renderer.renderDocument(try MarkerRequest(marker: marker, theme: theme, scale: 2), format: .svg)
                #expect(try Self.bytes("\(web)/\(file)") == document.bytes)
                #expect(file == document.image.fileName)
                #expect(picture["width"] as? Double == Double(document.image.width) / 2)
                #expect(picture["height"] as? Double == Double(document.image.height) / 2)
                #expect(picture["anchorX"] as? Double == document.image.anchor.x / 2)
                #expect(picture["anchorY"] as? Double == document.image.anchor.y / 2)
            }
        }
        #expect(try Self.files(under: web) == named)
        let markers = try #require(index["markers"] as? [[String: Any]])
        let placed = try #require(contents.placed)
        #expect(markers.count == placed.count)
        for (written, routeMarker) in zip(markers, placed) {
            #expect(written["image"] as? String == "\(routeMarker.marker.kind.rawValue)-\(routeMarker.marker.label)")
            // To a ten-millionth of a degree, about 1 cm.
            #expect(abs((written["lon"] as? Double ?? 0) - routeMarker.coordinate.longitude) < 0.6e-7)
            #expect(abs((written["lat"] as? Double ?? 0) - routeMarker.coordinate.latitude) < 0.6e-7)
            #expect(written["zooms"] as? [Int] == routeMarker.zooms)
            #expect(written["minzoom"] as? Int == routeMarker.minzoom)
        }
    }

    @Test("web: Chromium shows each SVG, placed by markers.json's CSS size and anchor on a 2x screen, as the @2x PNG")
    func webInChromium() async throws {
        let marker = try Marker(combining: [try Marker.Part(kind: .end, distance: 24.04), try Marker.Part(kind: .start, distance: 0)])
        let contents = TargetContents(markers: [marker, try Marker(kind: .distance, distance: 7.5)])
        let folder = try await Self.write(contents, .web)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let index = try Self.object(folder + "/web/markers.json")
        let images = try #require(index["images"] as? [String: [String: Any]])
        // Each picture's anchor on a whole CSS pixel, as a page puts a map point: (100, 100), (300, 100), …
        var placed: [(request: MarkerRequest, x: Double, y: Double)] = []
        var tags = ""
        for (column, marker) in contents.markers.enumerated() {
            for (row, theme) in [Theme.day, .night].enumerated() {
                let picture = try #require(images["\(marker.kind.rawValue)-\(marker.label)"]?[theme.name] as? [String: Any])
                let (x, y) = (100.0 + 200 * Double(column), 100.0 + 100 * Double(row))
                let number = { (key: String) in picture[key] as? Double ?? 0 }
                tags +=
                    #"<img src="web/\#(picture["file"] as? String ?? "")" style="position:absolute;left:\#(x - number("anchorX"))px;"#
                    + #"top:\#(y - number("anchorY"))px;width:\#(number("width"))px;height:\#(number("height"))px">"#
                placed.append((try MarkerRequest(marker: marker, theme: theme, scale: 2), x, y))
            }
        }
        let page = folder + "/page.html"
        try Data("<!doctype html><html><body style=\"margin:0\">\(tags)</body></html>".utf8).write(to: URL(fileURLWithPath: page))
        let shot = folder + "/shot.png"
        _ = try Command.output(
            "/usr/bin/chromium",
            [
                "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--virtual-time-budget=5000", "--window-size=500,300",
                "--force-device-scale-factor=2", "--default-background-color=00000000", "--screenshot=\(shot)", "file://" + page,
            ])
        let screen = try PNGDecoder.decode(try Self.bytes(shot))
        let renderer = try MarkerRenderer()
        for (request, x, y) in placed {
            let png = try PNGDecoder.decode(try renderer.render(request).png)
            let anchor = try renderer.render(request).image.anchor
            let left = Int(2 * x - anchor.x)
            let top = Int(2 * y - anchor.y)
            var crop = RGBAImage(width: png.width, height: png.height)
            for row in 0..<png.height {
                for column in 0..<png.width { crop[column, row] = screen[left + column, top + row] }
            }
            let result = PixelComparison.compare(expected: png, actual: crop, options: .init(threshold: 0.1))
            // Only the text's anti-aliased edges differ (Skia's rasteriser against Cairo's): at most 38 of 12,320 pixels, 0.3%.
            #expect(result.differingShare <= 0.01, "\(request.baseName): \(result.differingPixels) of \(result.totalPixels) pixels differ")
        }
    }

    /// Something in the way of a target's folder, and whether markerpaint may replace it.
    enum Obstacle: String, CaseIterable, CustomTestStringConvertible {
        case earlierRun, foreignFileInside, changedFile, noRecord, rootIsAFile, otherFilesBeside
        var testDescription: String { rawValue }
    }

    @Test(
        "the target folder is replaced only when markerpaint wrote it, unchanged; anything else is refused and left as it was",
        arguments: Obstacle.allCases)
    func replacesOnlyItsOwn(obstacle: Obstacle) async throws {
        let folder = try BatchFixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let first = TargetContents(markers: try (0...3).map { try Marker(kind: .distance, distance: Double($0)) })
        let second = TargetContents(markers: [try Marker(kind: .end, distance: 9)])
        let write = { (contents: TargetContents) async throws in
            try await Self.bundle(contents, .ios, to: folder)
        }
        let catalog = folder + "/Markers.xcassets"
        let fileManager = FileManager.default
        switch obstacle {
        case .earlierRun: _ = try await write(first)
        case .foreignFileInside:
            _ = try await write(first)
            try Data("mine".utf8).write(to: URL(fileURLWithPath: catalog + "/notes.txt"))
        case .changedFile:
            _ = try await write(first)
            try Data("{}".utf8).write(to: URL(fileURLWithPath: catalog + "/distance-1km.imageset/Contents.json"))
        case .noRecord:
            _ = try await write(first)
            try fileManager.removeItem(atPath: folder + "/markerpaint-ios.json")
        case .rootIsAFile: try Data("a file".utf8).write(to: URL(fileURLWithPath: catalog))
        case .otherFilesBeside:
            try fileManager.createDirectory(atPath: folder + "/App/Assets.xcassets", withIntermediateDirectories: true)
            try Data("{}".utf8).write(to: URL(fileURLWithPath: folder + "/App/Assets.xcassets/Contents.json"))
        }
        let before = try Self.snapshot(folder)
        switch obstacle {
        case .earlierRun, .otherFilesBeside:
            _ = try await write(second)
            let after = try Self.snapshot(folder)
            #expect(
                after.keys.filter { $0.hasPrefix("Markers.xcassets/") }.sorted() == [
                    "Markers.xcassets/Contents.json", "Markers.xcassets/end-9km.imageset/Contents.json",
                ] + ["", "-dark"].flatMap { dark in (1...3).map { "Markers.xcassets/end-9km.imageset/end-9km\(dark)@\($0)x.png" } }.sorted())
            // What markerpaint did not write is untouched, and no staging folder is left.
            for (path, bytes) in before where !path.hasPrefix("Markers.xcassets") && path != "markerpaint-ios.json" {
                #expect(after[path] == bytes, "\(path)")
            }
            #expect(after.keys.allSatisfy { !$0.hasPrefix(".markerpaint") })
        case .foreignFileInside, .changedFile, .noRecord, .rootIsAFile:
            await #expect(throws: OutputError.self) { try await write(second) }
            #expect(try Self.snapshot(folder) == before)
        }
    }

    @Test("a killed run's staging folder is removed by the next run; folders that only look like one are left")
    func abandonedStaging() async throws {
        let folder = try BatchFixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let fileManager = FileManager.default
        // pid 2^22 + 1 is above Linux's largest pid, so never running.
        let abandoned = folder + "/.markerpaint-target-4194305-17"
        try fileManager.createDirectory(atPath: abandoned + "/Markers.xcassets/end-9km.imageset", withIntermediateDirectories: true)
        try fileManager.createDirectory(atPath: abandoned + "/Markers.xcassets.old", withIntermediateDirectories: true)
        let running = folder + "/.markerpaint-target-\(ProcessInfo.processInfo.processIdentifier)-18/Markers.xcassets"
        let foreign = folder + "/.markerpaint-target-4194305-19/notes"
        let misnamed = folder + "/.markerpaint-target-x-20/Markers.xcassets"
        for path in [running, foreign, misnamed] { try fileManager.createDirectory(atPath: path, withIntermediateDirectories: true) }
        try await Self.bundle(TargetContents(markers: [try Marker(kind: .end, distance: 9)]), .ios, to: folder)
        #expect(!fileManager.fileExists(atPath: abandoned))
        for path in [running, foreign, misnamed] { #expect(fileManager.fileExists(atPath: path), "\(path)") }
    }

    /// Every file under `folder` with its bytes.
    static func snapshot(_ folder: String) throws -> [String: [UInt8]] {
        var snapshot: [String: [UInt8]] = [:]
        for path in try files(under: folder) { snapshot[path] = try bytes(folder + "/" + path) }
        return snapshot
    }

    @Test("the images a target needs are counted before any is drawn, and too many are refused")
    func boundedWork() async throws {
        let markers = try (0..<7_000).map { try Marker(kind: .distance, distance: Double($0)) }
        let contents = TargetContents(markers: markers)
        #expect(contents.imageCount(for: .android) == 70_000)
        #expect(contents.imageCount(for: .ios) == 42_000)
        let folder = try BatchFixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let more = try (7_000..<10_001).map { try Marker(kind: .distance, distance: Double($0)) }
        let many = TargetContents(markers: markers + more)
        await #expect {
            try await Self.bundle(many, .android, to: folder)
        } throws: { error in
            "\(error)".contains("100010 images") && "\(error)".contains("limit of 100000")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder).isEmpty)
    }
}
