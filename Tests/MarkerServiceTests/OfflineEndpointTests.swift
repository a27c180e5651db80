import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import MarkerMap
import RouteModel
import RouteFormats
import OfflineCorridor
import MarkerService
import TestSupport
import Testing

/// `POST /v1/routes?offline=true` and `POST /v1/offline/tiles`: the offline pack the CLI writes, over HTTP.
@Suite("Offline packs from the service")
struct OfflineEndpointTests {
    static func pack(_ bytes: [UInt8], _ configure: (inout OfflinePack.Options) -> Void = { _ in }) throws -> OfflinePack {
        var options = OfflinePack.Options()
        configure(&options)
        return try OfflinePack(route: Route.parse(bytes, format: nil), options: options)
    }

    static func gunzip(_ bytes: [UInt8]) throws -> [UInt8] {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("gunzip-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("tiles.json.gz")
        try Data(bytes).write(to: file)
        return Array(try Command.output("/bin/gzip", ["-dc", file.path]).utf8)
    }

    @Test("a route document with offline=true carries the corridor and the counts the library works out, and where the tiles are")
    func routeDocument() async throws {
        let gpx = try sharedRouteBytes("korita-zbevnica.gpx")
        let expected = try Self.pack(gpx) { $0.buffer = 1_500; $0.zooms = 10...15; $0.tileSize = 512 }
        try await LiveService.run { client in
            let response = try await client.execute(
                uri: "/v1/routes?themes=day&sprites=false&offline=true&buffer=1500&offlineZooms=10-15&tileSize=512", method: .post,
                body: ByteBuffer(bytes: gpx))
            #expect(response.status == .ok)
            let document = try #require(try JSONSerialization.jsonObject(with: Data(response.body.readableBytesView)) as? [String: Any])
            let offline = try #require(document["offline"] as? [String: Any])
            #expect(offline["count"] as? Int == expected.count && offline["boxCount"] as? Int == expected.boxCount)
            #expect(offline["tiles"] as? String == "/v1/offline/tiles")
            let zooms = try #require(offline["zooms"] as? [[String: Any]])
            #expect(zooms.compactMap { $0["zoom"] as? Int } == Array(10...15))
            #expect(zooms.compactMap { $0["tileZoom"] as? Int } == Array(10...15))
            #expect(zooms.compactMap { $0["count"] as? Int } == expected.levels.map(\.tiles.count))
            #expect(zooms.allSatisfy { $0["tiles"] == nil }, "the document gives counts; the list is served apart")
            let corridor = try #require(offline["corridor"] as? [String: Any])
            #expect(["Polygon", "MultiPolygon"].contains(corridor["type"] as? String ?? ""))
        }
    }

    @Test("the tile list is the CLI's tiles.json, gzip-compressed when the client takes it")
    func tileList() async throws {
        let gpx = try sharedRouteBytes("korita-zbevnica.gpx")
        let expected = try OfflineFiles.tiles(try Self.pack(gpx))
        try await LiveService.run { client in
            let compressed = try await client.execute(
                uri: "/v1/offline/tiles", method: .post, headers: [.acceptEncoding: "gzip, deflate, br"], body: ByteBuffer(bytes: gpx))
            #expect(compressed.status == .ok)
            #expect(compressed.headers[.contentEncoding] == "gzip" && compressed.headers[.vary] == "Accept-Encoding")
            #expect(compressed.bytes.count * 3 < expected.count, "\(compressed.bytes.count) of \(expected.count) bytes")
            #expect(try Self.gunzip(compressed.bytes) == expected)
            let plain = try await client.execute(
                uri: "/v1/offline/tiles?offline=true", method: .post, headers: [.acceptEncoding: "gzip;q=0, identity"], body: ByteBuffer(bytes: gpx))
            #expect(plain.status == .ok && plain.headers[.contentEncoding] == nil)
            #expect(plain.bytes == expected)
        }
    }

    @Test(
        "offline parameters that cannot be followed are a 400 naming them",
        arguments: [
            ("/v1/routes?buffer=500", "buffer", "is for offline=true"),
            ("/v1/routes?offline=true&buffer=0", "buffer", "must be 1 to 100000"),
            ("/v1/routes?offline=true&offlineZooms=14-8", "offlineZooms", "must be two zooms"),
            ("/v1/routes?offline=true&tileSize=300", "tileSize", "must be 256 or 512"),
            ("/v1/offline/tiles?offline=false", "offline", "the tile list is of an offline pack"),
            ("/v1/routes?offline=true&offlineZooms=8-22", "body", "could hold up to"),
            ("/v1/offline/tiles?offlineZooms=8-22", "body", "could hold up to"),
        ])
    func refusals(uri: String, parameter: String, message: String) async throws {
        let gpx = try sharedRouteBytes("korita-zbevnica.gpx")
        try await LiveService.run { client in
            let response = try await client.execute(uri: uri, method: .post, body: ByteBuffer(bytes: gpx))
            #expect(response.status == .badRequest)
            let error = try ErrorBody(response)
            #expect(error.parameter == parameter && error.error.contains(message), "\(error)")
        }
    }
}
