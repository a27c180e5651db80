import Foundation
import Hummingbird
import HummingbirdTesting
import MarkerPixels
import MarkerRender
import MarkerService
import MarkerSpec
import MarkerPNG
import TestSupport
import Testing

/// `GET /v1/sprites/<spelling>-<hash>` and `GET /v1/icons/<id>`: what map SDKs fetch from a route
/// document by themselves, checked against pictures drawn here, and redrawn by a fresh instance.
@Suite("Sprite sheets and icons")
struct SpriteEndpointTests {
    /// About 9.4 km due north: a start, 9 distance markers and an end.
    static let line = #"{"type": "LineString", "coordinates": [[14.0, 46.0], [14.0, 46.05], [14.0, 46.085]]}"#

    typealias Document = RouteEndpointTests.Document

    struct Placement: Decodable, Equatable {
        let x: Int
        let y: Int
        let width: Int
        let height: Int
        let pixelRatio: Int
    }

    /// Every file of every sheet of `document` by its path: the 1x and @2x PNG and JSON.
    static func sheetFiles(of document: Document, client: LiveClient) async throws -> [String: [UInt8]] {
        var files: [String: [UInt8]] = [:]
        for sheet in document.sprite {
            for suffix in [".json", "@2x.json", ".png", "@2x.png"] {
                let response = try await client.execute(uri: sheet.url + suffix, method: .get)
                #expect(response.status == .ok, "\(sheet.url + suffix)")
                #expect(response.headers[.cacheControl] == "public, max-age=31536000, immutable")
                #expect(response.headers[.contentType] == (suffix.hasSuffix(".png") ? "image/png" : "application/json"))
                files[sheet.url + suffix] = response.bytes
            }
        }
        return files
    }

    @Test("each theme's sheet holds exactly its features' icons, each placed with its own pixels at 1x and @2x")
    func sheetsHoldTheIcons() async throws {
        try await LiveService.run { client in
            let response = try await client.execute(uri: "/v1/routes", method: .post, body: ByteBuffer(string: Self.line))
            #expect(response.status == .ok)
            let document = try Document(response)
            #expect(document.sprite.map(\.id) == ["markerpaint-day", "markerpaint-night"])
            let files = try await Self.sheetFiles(of: document, client: client)
            for sheet in document.sprite {
                let theme = String(sheet.id.dropFirst("markerpaint-".count))
                #expect(sheet.url.hasPrefix("/v1/sprites/\(theme)_km_d1-9_s0_e9.4-"), "\(sheet.url)")
                let icons = Set(document.features.compactMap { $0.properties.icon[theme] })
                #expect(document.features.allSatisfy { $0.properties.sprite?[theme] == sheet.id })
                for (ratio, suffix) in [(1, ""), (2, "@2x")] {
                    let index = try JSONDecoder().decode([String: Placement].self, from: Data(try #require(files[sheet.url + suffix + ".json"])))
                    #expect(Set(index.keys) == icons)
                    let pixels = try PNGDecoder.decode(try #require(files[sheet.url + suffix + ".png"]))
                    for (id, placement) in index {
                        #expect(placement.pixelRatio == ratio)
                        let (marker, pictureTheme) = try #require(SpriteID.parse(id[...]))
                        let expected = try PNGDecoder.decode(
                            MarkerRenderer().render(MarkerRequest(marker: marker, theme: pictureTheme, scale: MarkerScale(integerLiteral: ratio))).png
                        )
                        #expect(placement.width == expected.width && placement.height == expected.height)
                        var differing = 0
                        for y in 0..<expected.height {
                            for x in 0..<expected.width where pixels[placement.x + x, placement.y + y] != expected[x, y] { differing += 1 }
                        }
                        #expect(differing == 0, "\(id) @\(ratio)x: \(differing) pixels differ from its PNG")
                    }
                }
            }
            // A client holding a sheet is told it has not changed.
            let first = try #require(document.sprite.first)
            let etag = try #require(try await client.execute(uri: first.url + ".png", method: .get).headers[.eTag])
            let again = try await client.execute(uri: first.url + ".png", method: .get, headers: [.ifNoneMatch: etag])
            #expect(again.status == .notModified)
        }
    }

    @Test("a fresh instance that never saw the route draws the same sheets and icons from their URLs alone")
    func anyInstanceRedraws() async throws {
        let (document, files) = try await LiveService.run { client in
            let response = try await client.execute(uri: "/v1/routes?themes=night", method: .post, body: ByteBuffer(string: Self.line))
            let document = try Document(response)
            return (document, try await Self.sheetFiles(of: document, client: client))
        }
        try await LiveService.run { client in
            let fresh = try await Self.sheetFiles(of: document, client: client)
            #expect(!fresh.isEmpty)
            #expect(fresh == files)
            for image in document.images.values.flatMap({ $0 }) {
                #expect(try await client.execute(uri: image.url, method: .get).status == .ok, "\(image.url)")
            }
        }
    }

    @Test("pictures beyond a sheet's limit go on further sheets, each named in the sprite array and by its features")
    func split() async throws {
        var configuration = LiveService.configuration
        configuration.maximumSheetPictures = 3
        try await LiveService.run(configuration) { client in
            let response = try await client.execute(uri: "/v1/routes?themes=day", method: .post, body: ByteBuffer(string: Self.line))
            #expect(response.status == .ok)
            let document = try Document(response)
            #expect(document.sprite.map(\.id) == ["markerpaint-day", "markerpaint-day-2", "markerpaint-day-3", "markerpaint-day-4"])
            let files = try await Self.sheetFiles(of: document, client: client)
            var holder: [String: String] = [:]
            for sheet in document.sprite {
                let index = try JSONDecoder().decode([String: Placement].self, from: Data(try #require(files[sheet.url + ".json"])))
                #expect((1...3).contains(index.count))
                for id in index.keys { holder[id] = sheet.id }
            }
            #expect(holder.count == document.features.count)
            for feature in document.features {
                let icon = try #require(feature.properties.icon["day"])
                #expect(holder[icon] == feature.properties.sprite?["day"])
            }
        }
    }

    struct BadName: Sendable, CustomTestStringConvertible {
        let path: String
        let status: HTTPResponse.Status
        var testDescription: String { path }
    }

    /// names in night, as `anyInstanceRedraws`' route has them, spelled or hashed wrongly.
    static let badNames: [BadName] = [
        BadName(path: "/v1/sprites/night_km_d1-9_s0_e9.4-0000000000.png", status: .notFound),
        BadName(path: "/v1/sprites/night_km_d1-09_s0_e9.5-0000000000.png", status: .notFound),
        BadName(path: "/v1/sprites/night_km_d1-1-0000000000.png", status: .notFound),
        BadName(path: "/v1/sprites/night_km_s0_d1-0000000000.png", status: .notFound),
        BadName(path: "/v1/sprites/night_km_d1-5000-0000000000.json", status: .notFound),
        BadName(path: "/v1/sprites/dusk_km_d1-0000000000.json", status: .notFound),
        BadName(path: "/v1/sprites/night_km_d1-0000000000@3x.png", status: .notFound),
        BadName(path: "/v1/sprites/night_km_d1-0000000000.png?v=2", status: .badRequest),
        BadName(path: "/v1/icons/distance-1km-night-0000000000.png", status: .notFound),
        BadName(path: "/v1/icons/distance-1km-night-0000000000@4x.png", status: .notFound),
        BadName(path: "/v1/icons/distance-01km-night-0000000000.png", status: .notFound),
        BadName(path: "/v1/icons/distance-1km-night.png", status: .notFound),
        BadName(path: "/v1/icons/distance-1km-night-0000000000.png?v=2", status: .badRequest),
    ]

    @Test("a sheet or icon name that is not canonical, holds too much, or whose hash does not match is refused", arguments: badNames)
    func badName(_ bad: BadName) async throws {
        try await LiveService.run { client in
            let response = try await client.execute(uri: bad.path, method: .get)
            #expect(response.status == bad.status)
            #expect(!(try ErrorBody(response).error.isEmpty))
        }
    }

    @Test("an icon URL at 1x is only `<id>.png`: `@1x` would be a second URL for one image")
    func oneURLPerIcon() async throws {
        try await LiveService.run { client in
            let document = try Document(
                try await client.execute(uri: "/v1/routes?themes=day", method: .post, body: ByteBuffer(string: Self.line)))
            let id = try #require(document.features.first?.properties.icon["day"])
            #expect(try await client.execute(uri: "/v1/icons/\(id).png", method: .get).status == .ok)
            #expect(try await client.execute(uri: "/v1/icons/\(id)@1x.png", method: .get).status == .notFound)
        }
    }
}
