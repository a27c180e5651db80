import Foundation
import MarkerPixels
import MarkerRender
import RouteModel
import RouteFormats
import RoutePlacement
import MarkerSpec
import SystemPackage
import TestSupport
import Testing

@testable import MarkerMap
@testable import MarkerOutput
import MarkerPNG

@Suite("Route batch output")
struct RouteBatchTests {
    func write(_ path: String, to out: String, options: RouteBatch.Options = RouteBatch.Options()) async throws -> RouteBatch.Summary {
        try await RouteBatch(route: try Route.load(path: path, format: nil), options: options).write(to: FilePath(out), threads: 2)
    }

    @Test("75 km and 123 km stages: the ends read 75km and 123km, under different names; day 1's end is day 2's start")
    func multiDayEndMarkers() async throws {
        let folder = try BatchFixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let out = folder + "/out"
        _ = try await write(BatchFixtures.twoStages, to: out)
        let geojson = try #require(try BatchFixtures.json(out + "/markers.geojson") as? [String: Any])
        let features = try #require(geojson["features"] as? [[String: Any]])
        let ends = features.compactMap { $0["properties"] as? [String: Any] }.filter { $0["kind"] as? String != "distance" }
        #expect(ends.map { $0["label"] as? String } == ["0km", "end75km_start0km", "123km"])
        #expect(ends.map { $0["kind"] as? String } == ["start", "combined", "end"])
        #expect(ends.map { $0["stage_name"] as? String } == ["Day 1", "Day 1", "Day 2"])
        let nightIcons = ends.compactMap { ($0["icon"] as? [String: String])?["night"] }
        #expect(Set(nightIcons).count == 3)
        let manifest = try #require(try BatchFixtures.json(out + "/manifest.json") as? [String: Any])
        let images = try #require(manifest["images"] as? [[String: Any]])
        let endFiles = images.filter { $0["kind"] as? String != "distance" && $0["theme"] as? String == "night" && $0["scale"] as? Int == 2 }
            .compactMap { $0["file"] as? String }.sorted()
        try #require(endFiles.count == 3)
        #expect(endFiles[0].hasPrefix("combined-end75km_start0km-night@2x-"))
        #expect(endFiles[1].hasPrefix("end-123km-night@2x-") && endFiles[2].hasPrefix("start-0km-night@2x-"))
        let stages = try #require(manifest["stages"] as? [[String: Any]])
        #expect(stages.compactMap { $0["length"] as? Double }.map { ($0 * 1000).rounded() / 1000 } == [75, 123])
    }

    @Test(
        "every JSON file of a run, and the preview's data, is byte for byte what JSONEncoder writes for the same document",
        arguments: ["korita-zbevnica.gpx", "route.gpx"])
    func jsonAsFoundationWritesIt(route: String) async throws {
        let folder = try BatchFixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let out = folder + "/out"
        _ = try await write(Repository.sharedRoute(route), to: out)
        let names = try FileManager.default.contentsOfDirectory(atPath: out).filter { $0.hasSuffix(".json") || $0.hasSuffix(".geojson") }
        #expect(names.contains("markers.geojson") && names.contains("manifest.json") && names.contains { $0.hasPrefix("sprite-") })
        for name in names {
            let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: out + "/" + name)))
            // markers.geojson is compact; the rest pretty. Sprite JSON keeps slashes escaped (none occur).
            let formatting: JSONEncoder.OutputFormatting =
                name == "markers.geojson"
                ? [.withoutEscapingSlashes] : name.hasPrefix("sprite-") ? [.prettyPrinted] : [.prettyPrinted, .withoutEscapingSlashes]
            #expect(try FoundationJSON.reencoded(bytes, formatting: formatting) == bytes, "\(name)")
        }
        let page = Array(try Data(contentsOf: URL(fileURLWithPath: out + "/" + PreviewPage.fileName)))
        let template = Array(PreviewTemplate.html.utf8)
        let placeholder = try #require(template.firstRange(of: Array("__DATA__".utf8)))
        let escaped = Array(page[placeholder.lowerBound..<(page.count - (template.count - placeholder.upperBound))])
        let data = Array(String(decoding: escaped, as: UTF8.self).replacingOccurrences(of: #"\u003c"#, with: "<").utf8)
        #expect(try FoundationJSON.reencoded(data, formatting: []) == data, "the preview's data")
    }

    @Test("every image is drawn once however often used, and a second run draws nothing")
    func reuse() async throws {
        let folder = try BatchFixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let out = folder + "/out"
        let first = try await write(BatchFixtures.twoStages, to: out)
        // 1...74 and 1...122 (the 75 and 123 fall on the ends), day 1's start, day 1's end with
        // day 2's start as one marker, day 2's end.
        #expect(first.markers == 74 + 122 + 3)
        #expect(first.images == first.rendered && first.reused == 0)
        // Distances 1...122, the start, the combined marker and the end; in 2 themes at 1x and @2x.
        #expect(first.images == (122 + 3) * 2 * 2)
        let second = try await write(BatchFixtures.twoStages, to: out)
        #expect(second.rendered == 0 && second.reused == first.images)
        // The reused output is the same output.
        let files = Set(try FileManager.default.contentsOfDirectory(atPath: out))
        #expect(files.filter { $0.hasSuffix(".png") && !$0.hasPrefix("sprite-") }.count == first.images)
    }

    @Test("a tampered image is drawn again, not reused")
    func tamperedImageIsRedrawn() async throws {
        let folder = try BatchFixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let out = folder + "/out"
        _ = try await write(Repository.sharedRoutes.appendingPathComponent("route.gpx").path, to: out)
        let victim = try #require(try FileManager.default.contentsOfDirectory(atPath: out).first { $0.hasPrefix("combined-") })
        try Data("not a png".utf8).write(to: URL(fileURLWithPath: out + "/" + victim))
        let second = try await write(Repository.sharedRoutes.appendingPathComponent("route.gpx").path, to: out)
        #expect(second.rendered == 1)
        #expect(try PNGDecoder.decode([UInt8](Data(contentsOf: URL(fileURLWithPath: out + "/" + victim)))).width > 0)
    }

    @Test("the manifest names only files that exist, with their true sizes and hashes")
    func manifestIsTrue() async throws {
        let folder = try BatchFixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let out = folder + "/out"
        var options = RouteBatch.Options()
        options.scales = [1, .oneAndAHalf, 2, 3]
        _ = try await write(Repository.sharedRoutes.appendingPathComponent("Mojstrovka.gpx").path, to: out, options: options)
        let manifest = try #require(try BatchFixtures.json(out + "/manifest.json") as? [String: Any])
        let images = try #require(manifest["images"] as? [[String: Any]])
        #expect(Set(images.map { $0["scale"] as? Double }) == [1, 1.5, 2, 3])
        for image in images {
            let file = try #require(image["file"] as? String)
            let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: out + "/" + file)))
            #expect(ContentHash.sha256Hex(bytes) == image["sha256"] as? String)
            #expect(file == "\(image["name"] as! String).png")
            let decoded = try PNGDecoder.decode(bytes)
            #expect(decoded.width == image["width"] as? Int && decoded.height == image["height"] as? Int)
            let anchor = try #require(image["anchor"] as? [String: Double])
            #expect(anchor["x"] == Double(decoded.width) / 2)
            #expect(anchor["y"] == Double(decoded.height) - 9 * (image["scale"] as! Double))
        }
        for sprite in try #require(manifest["sprites"] as? [[String: Any]]) {
            #expect(FileManager.default.fileExists(atPath: out + "/" + (sprite["png"] as! String)))
            #expect(FileManager.default.fileExists(atPath: out + "/" + (sprite["json"] as! String)))
        }
        #expect(FileManager.default.fileExists(atPath: out + "/style-layer.json"))
    }

    @Test(
        "every icon in markers.geojson is on the sheet its feature names, at 1x and @2x, at the picture's own pixels",
        arguments: [SpriteSheet.maximumSide, 190]
    )
    func spritesHoldEveryIcon(spriteSide: Int) async throws {
        let folder = try BatchFixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let out = folder + "/out"
        var options = RouteBatch.Options()
        options.spriteSide = spriteSide
        _ = try await write(Repository.sharedRoutes.appendingPathComponent("route.gpx").path, to: out, options: options)
        let geojson = try #require(try BatchFixtures.json(out + "/markers.geojson") as? [String: Any])
        let manifest = try #require(try BatchFixtures.json(out + "/manifest.json") as? [String: Any])
        let images = try #require(manifest["images"] as? [[String: Any]])
        let sprites = try #require(manifest["sprites"] as? [[String: Any]])
        for theme in ["day", "night"] {
            let sheetIDs = Set(sprites.filter { $0["theme"] as? String == theme }.compactMap { $0["id"] as? String })
            // 190 px holds a few pictures (the loop's combined marker is 182 px wide at @2x): the
            // theme's seven spread over several sheets.
            #expect(spriteSide == 190 ? sheetIDs.count > 1 : sheetIDs == ["markerpaint-\(theme)"], "\(sheetIDs)")
            for ratio in [1, 2] {
                for feature in try #require(geojson["features"] as? [[String: Any]]) {
                    let properties = try #require(feature["properties"] as? [String: Any])
                    let icon = try #require((properties["icon"] as? [String: String])?[theme])
                    let sheetID = try #require((properties["sprite"] as? [String: String])?[theme])
                    let sprite = try #require(sprites.first { $0["id"] as? String == sheetID && $0["pixelRatio"] as? Int == ratio })
                    let index = try #require(try BatchFixtures.json("\(out)/\(sprite["json"] as! String)") as? [String: [String: Int]])
                    let sheet = try PNGDecoder.decode([UInt8](Data(contentsOf: URL(fileURLWithPath: "\(out)/\(sprite["png"] as! String)"))))
                    #expect(sheet.width <= spriteSide && sheet.height <= spriteSide)
                    let place = try #require(index[icon], "\(icon) missing from \(sprite["json"] as? String ?? "")")
                    #expect(place["pixelRatio"] == ratio)
                    // The sprite region holds exactly the image file of that id and ratio, pixel for pixel.
                    let file = try #require(images.first { $0["sprite"] as? String == icon && $0["scale"] as? Int == ratio }?["file"] as? String)
                    let image = try PNGDecoder.decode([UInt8](Data(contentsOf: URL(fileURLWithPath: out + "/" + file))))
                    #expect(place["width"] == image.width && place["height"] == image.height)
                    let (left, top) = (try #require(place["x"]), try #require(place["y"]))
                    let differing = (0..<image.height).reduce(0) { count, y in
                        count + (0..<image.width).count { x in sheet[left + x, top + y] != image[x, y] }
                    }
                    #expect(differing == 0, "\(icon) at \(ratio)x")
                }
            }
        }
    }

    @Test("sheets are named by a hash of their PNG and JSON at both ratios; --scales 3 still gives 1x and @2x sheets, no @3x")
    func spriteNamesAndRatios() async throws {
        let folder = try BatchFixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let out = folder + "/out"
        var options = RouteBatch.Options()
        options.scales = [3]
        options.route.themes = [.night]
        _ = try await write(Repository.sharedRoutes.appendingPathComponent("route.gpx").path, to: out, options: options)
        let manifest = try #require(try BatchFixtures.json(out + "/manifest.json") as? [String: Any])
        let sprites = try #require(manifest["sprites"] as? [[String: Any]])
        #expect(sprites.compactMap { $0["pixelRatio"] as? Int }.sorted() == [1, 2])
        let name = try #require(sprites.first?["name"] as? String)
        #expect(sprites.allSatisfy { $0["name"] as? String == name })
        let files = try [1, 2].map { ratio in
            let sprite = try #require(sprites.first { $0["pixelRatio"] as? Int == ratio })
            #expect(sprite["png"] as? String == name + (ratio == 1 ? "" : "@2x") + ".png")
            #expect(sprite["json"] as? String == name + (ratio == 1 ? "" : "@2x") + ".json")
            return (
                png: [UInt8](try Data(contentsOf: URL(fileURLWithPath: out + "/" + (sprite["png"] as! String)))),
                json: [UInt8](try Data(contentsOf: URL(fileURLWithPath: out + "/" + (sprite["json"] as! String))))
            )
        }
        #expect(name == SpriteSheet.name(theme: .night, files: files))
        #expect(name.wholeMatch(of: /sprite-night-[0-9a-f]{10}/) != nil)
        let written = try FileManager.default.contentsOfDirectory(atPath: out)
        #expect(!written.contains { $0.hasPrefix("sprite-") && $0.contains("@3x") })
        // The per-image PNGs keep the asked scale; the sprite's pictures come with them.
        #expect(written.contains { $0.contains("night@3x-") } && written.contains { $0.contains("night@2x-") })
    }

    @Test("a run with fewer themes or other scales reuses every image it shares with the last run")
    func reuseAcrossOptionSets() async throws {
        let folder = try BatchFixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let out = folder + "/out"
        let route = Repository.sharedRoutes.appendingPathComponent("route.gpx").path
        let first = try await write(route, to: out)
        var dayOnly = RouteBatch.Options()
        dayOnly.route.themes = [.day]
        let second = try await write(route, to: out, options: dayOnly)
        #expect(second.rendered == 0 && second.reused == first.images / 2)
        var moreScales = RouteBatch.Options()
        moreScales.scales = [1, 2, 3]
        let third = try await write(route, to: out, options: moreScales)
        // Day at 1x and 2x are still there; night was left out of the last run, and 3x is new.
        #expect(third.reused == first.images / 2 && third.rendered == third.images - third.reused)
    }

    @Test(
        "an image is reused only where its own theme and scale draw as they did: one changed fingerprint redraws that theme and scale alone, none recorded redraws all"
    )
    func reusePerThemeAndScale() async throws {
        let folder = try BatchFixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let out = folder + "/out"
        let route = Repository.sharedRoutes.appendingPathComponent("route.gpx").path
        let first = try await write(route, to: out)
        let manifestURL = URL(fileURLWithPath: out + "/" + Manifest.fileName)
        var manifest = try JSONDecoder().decode(Manifest.self, from: Data(contentsOf: manifestURL))
        // The first run probed exactly what it drew: two themes at 1x and @2x.
        #expect(Set(manifest.renderers?.keys.map { $0 } ?? []) == ["day@1x", "day@2x", "night@1x", "night@2x"])
        #expect(manifest.renderer == RendererFingerprint.combined(manifest.renderers ?? [:]))
        // As if night @2x had been drawn by another renderer.
        manifest.renderers?["night@2x"] = "0000000000000000"
        try Data(try manifest.encoded()).write(to: manifestURL)
        let second = try await write(route, to: out)
        #expect(second.rendered == first.images / 4 && second.reused == first.images - first.images / 4)
        // A manifest from before fingerprints were kept per theme and scale: nothing can be vouched for.
        manifest = try JSONDecoder().decode(Manifest.self, from: Data(contentsOf: manifestURL))
        manifest.renderers = nil
        try Data(try manifest.encoded()).write(to: manifestURL)
        let third = try await write(route, to: out)
        #expect(third.rendered == first.images && third.reused == 0)
    }

    @Test("the style layer anchors the dot centre on the point")
    func styleLayer() throws {
        let layer = try #require(JSONSerialization.jsonObject(with: Data(StyleLayer.json(theme: .night))) as? [String: Any])
        let layout = try #require(layer["layout"] as? [String: Any])
        #expect(layout["icon-anchor"] as? String == "bottom")
        #expect((layout["icon-offset"] as? [Double]) == [0, 9])
        #expect(layer["type"] as? String == "symbol")
    }

    @Test("the style filter of placed markers shows each from its minzoom on", arguments: [0, 5, 13, 22, 23])
    func minzoomFilter(minzoom: Int) throws {
        let layer = try #require(JSONSerialization.jsonObject(with: Data(StyleLayer.json(theme: .day))) as? [String: Any])
        let filter = try #require(layer["filter"])
        for zoom in 0...22 {
            for kind in ["start", "distance", "combined"] {
                let shown = try FilterEvaluator(zoom: zoom, properties: ["kind": kind, "minzoom": minzoom]).truthy(filter)
                #expect(shown == (zoom >= minzoom), "\(kind) of minzoom \(minzoom) at zoom \(zoom)")
            }
        }
    }

    @Test(
        "with --zooms table, the style filter shows exactly the markers of the zoom table",
        arguments: [
            1, 2, 5, 10, 20, 30, 40, 50, 60, 90, 100, 150, 300, 1234,
        ])
    func zoomFilter(distance: Int) throws {
        // Evaluated from the JSON a map SDK reads, not from the Swift value that writes it.
        let layer = try #require(JSONSerialization.jsonObject(with: Data(StyleLayer.json(theme: .night, visibility: .table))) as? [String: Any])
        let filter = try #require(layer["filter"])
        for zoom in 0...22 {
            let shown = try FilterEvaluator(zoom: zoom, properties: ["kind": "distance", "distance": Double(distance)])
                .truthy(filter)
            #expect(shown == ZoomTable.zooms(forStep: distance).contains(zoom), "\(distance) at zoom \(zoom)")
            for kind in ["start", "end"] {
                #expect(try FilterEvaluator(zoom: zoom, properties: ["kind": kind, "distance": Double(distance) + 0.37]).truthy(filter))
            }
        }
    }

    @Test(
        "the style filter scales with the marker interval: it shows the markers the plan's zooms say",
        arguments: ["0.1", "0.3", "0.5", "2.5", "5", "1000"])
    func zoomFilterWithInterval(interval: String) throws {
        let interval = try MarkerInterval(interval)
        let layer = try #require(
            JSONSerialization.jsonObject(with: Data(StyleLayer.json(theme: .night, visibility: .table, interval: interval))) as? [String: Any])
        let filter = try #require(layer["filter"])
        for step in [1, 2, 3, 5, 7, 10, 20, 30, 50, 60, 150, 300, 999, 1234] {
            for kind in ["distance", "countdown"] {
                let properties: [String: Any] = ["kind": kind, "distance": interval.reading(step: step)]
                for zoom in 0...22 {
                    let shown = try FilterEvaluator(zoom: zoom, properties: properties).truthy(filter)
                    #expect(shown == ZoomTable.zooms(forStep: step).contains(zoom), "\(kind) step \(step) at zoom \(zoom)")
                }
            }
        }
    }

    @Test("a failing run leaves the previous output as it was")
    func failureKeepsPrevious() async throws {
        let folder = try BatchFixtures.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let out = folder + "/out"
        _ = try await write(Repository.sharedRoutes.appendingPathComponent("route.gpx").path, to: out)
        let before = try snapshot(out)
        // Sprite sheets too small for one picture: fails after drawing, before publishing.
        var options = RouteBatch.Options()
        options.spriteSide = 8
        let route = try Route.load(path: Repository.sharedRoutes.appendingPathComponent("Mojstrovka.gpx").path, format: nil)
        await #expect {
            try await RouteBatch(route: route, options: options).write(to: FilePath(out), threads: 2)
        } throws: { error in
            (error as? OutputError)?.mapError?.reason == .spriteTooLarge
        }
        #expect(try snapshot(out) == before)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["out"])
    }

    private func snapshot(_ folder: String) throws -> [String: Data] {
        try Dictionary(
            uniqueKeysWithValues: FileManager.default.contentsOfDirectory(atPath: folder).map {
                ($0, try Data(contentsOf: URL(fileURLWithPath: folder + "/" + $0)))
            })
    }
}

@Suite("Route image set")
struct RouteImageSetTests {
    @Test("stage ends of 122.45 km and 122.48 km both read 122km and are one image, drawn once")
    func sameLabelIsOneImage() throws {
        let route = Route(stages: [
            Stage(name: "a", coordinates: [Coordinate(latitude: 0, longitude: 0), Coordinate(latitude: 0, longitude: 1.1)]),
            Stage(name: "b", coordinates: [Coordinate(latitude: 0, longitude: 0), Coordinate(latitude: 0, longitude: 1.1003)]),
        ])
        // Both stages start at one point and end 33 m apart: kept apart here to see the ends alone.
        let plan = try MarkerPlan(route: route, unit: .km, cumulative: false, combining: false)
        let ends = plan.markers.filter { $0.kind == .end }
        #expect(ends.count == 2 && ends[0].distance != ends[1].distance)
        let images = try RouteImageSet(plan: plan, themes: [.night], scales: [2])
        let endImages = images.requests.filter { $0.marker.kind == .end }
        #expect(endImages.map(\.marker.label) == ["122km"])
    }
}
