import Foundation
import MarkerPNG
import MarkerPixels
import MarkerSpec
import RouteModel
import RouteFormats
import RoutePlacement
import SystemPackage
import TestSupport
import Testing

@testable import MarkerOutput

/// A route's pins and callouts in the iOS, Android and web targets, beside its markers.
@Suite("Platform targets with pins", .serialized)
struct PlatformTargetPinTests {
    /// A 3 km walk with three waypoints: two springs (the same pin) and a hut with a description.
    static func contents() throws -> TargetContents {
        let route = MadeRoutes.shortHike
        let at = route.stages[0].coordinates
        let waypoints = [
            Waypoint(coordinate: at[20], name: "Spring", symbol: "Drinking Water"),
            Waypoint(coordinate: at[60], name: "Koča na planini", description: "Open June to September", symbol: "Shelter"),
            Waypoint(coordinate: at[100], name: "Spring", description: "Dry in August", symbol: "drinking-water"),
        ]
        let plan = try RouteBatch(route: Route(stages: route.stages, waypoints: waypoints), options: RouteBatch.Options()).plan
        return TargetContents(plan: plan)
    }

    @Test("ios: an imageset for each distinct pin and callout, named by what it shows, a second of a name numbered")
    func ios() async throws {
        let folder = try await PlatformTargetTests.write(try Self.contents(), .ios)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let files = try PlatformTargetTests.files(under: folder + "/Markers.xcassets")
        for name in ["pin-water", "pin-shelter", "callout-spring", "callout-ko-a-na-planini", "callout-spring-2"] {
            for file in ["\(name)@1x.png", "\(name)@2x.png", "\(name)@3x.png", "\(name)-dark@1x.png", "\(name)-dark@3x.png", "Contents.json"] {
                #expect(files.contains("\(name).imageset/\(file)"), "\(name).imageset/\(file)")
            }
        }
        #expect(!files.contains { $0.hasPrefix("pin-water-2") }, "the two springs share one pin")
        // Each file is the picture drawn: the callout's @2x as wide as its text asks, within 120-240 pt.
        let callout = try PNGDecoder.decode(try PlatformTargetTests.bytes(folder + "/Markers.xcassets/callout-ko-a-na-planini.imageset/callout-ko-a-na-planini@2x.png"))
        #expect((2 * (120 + 24)...2 * (240 + 24)).contains(callout.width), "\(callout.width)")
    }

    @Test("android: pins and callouts as drawables at every density, day and night")
    func android() async throws {
        let folder = try await PlatformTargetTests.write(try Self.contents(), .android)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let files = try PlatformTargetTests.files(under: folder + "/res")
        for name in ["pin_water", "pin_shelter", "callout_spring", "callout_ko_a_na_planini", "callout_spring_2"] {
            #expect(AndroidResources.isLegal(name))
            for density in ["mdpi", "hdpi", "xhdpi", "xxhdpi", "xxxhdpi"] {
                #expect(files.contains("drawable-\(density)/\(name).png") && files.contains("drawable-night-\(density)/\(name).png"), "\(name) \(density)")
            }
        }
    }

    @Test("web: each pin and callout as an SVG in the index, and each waypoint with its pin, callout, place and zooms")
    func web() async throws {
        let folder = try await PlatformTargetTests.write(try Self.contents(), .web)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let index = try PlatformTargetTests.object(folder + "/web/markers.json")
        let images = try #require(index["images"] as? [String: [String: Any]])
        let pins = try #require(index["pins"] as? [[String: Any]])
        #expect(pins.map { $0["image"] as? String } == ["pin-water", "pin-shelter", "pin-water"])
        #expect(pins.map { $0["callout"] as? String } == ["callout-spring", "callout-ko-a-na-planini", "callout-spring-2"])
        #expect(pins.map { $0["title"] as? String } == ["Spring", "Koča na planini", "Spring"])
        for pin in pins {
            for key in ["image", "callout"] {
                let name = try #require(pin[key] as? String)
                let entry = try #require(images[name])
                for theme in ["day", "night"] {
                    let picture = try #require(entry[theme] as? [String: Any])
                    let file = try #require(picture["file"] as? String)
                    #expect(file.hasSuffix(".svg") && FileManager.default.fileExists(atPath: folder + "/web/" + file))
                    // The pin's tip is its anchor: at its foot, in CSS pixels.
                    if key == "image" { #expect(picture["anchorX"] as? Double == 17 && picture["anchorY"] as? Double == 36, "\(picture)") }
                }
            }
            #expect((pin["zooms"] as? [Int])?.last == 22)
        }
    }
}
