import Foundation
import Hummingbird
import HummingbirdTesting
import MarkerService
import MarkerSpec
import TestSupport
import Testing

/// What an attacker or a careless client sends: the service answers it with a 4xx or closes the
/// connection, and keeps answering everyone else.
@Suite("Hardening the service")
struct HardeningTests {
    /// Short timeouts, so the tests that wait for them are quick.
    static var quick: ServiceConfiguration {
        var configuration = LiveService.configuration
        configuration.idleTimeout = .seconds(1)
        configuration.bodyTimeout = .seconds(1)
        configuration.requestTimeout = .seconds(5)
        return configuration
    }

    /// 2,000 points between longitude 0 and 179.9 on the equator: 16 KB, 40 million km of route.
    static let zigzag: String = {
        let positions = (0..<2000).map { $0.isMultiple(of: 2) ? "[0,0]" : "[179.9,0]" }
        return #"{"type":"LineString","coordinates":[\#(positions.joined(separator: ","))]}"#
    }()

    static func healthy(_ client: LiveClient) async throws -> Bool {
        try await client.execute(uri: "/healthz", method: .get).status == .ok
    }

    /// Why health over new connections failed three times, or nil when one answered 200; for tests
    /// whose timeouts close the test client's own connection.
    ///
    /// It connects and sends on one thread, and tries three times: these servers run with 1 s idle
    /// and 5 s request timeouts, and in one CI run (every suite at once on two cores, MapLibre
    /// beside them) a single check found its connection closed unanswered. A server that stopped
    /// answering fails all three; the reasons are in the failure.
    static func unhealthy(port: Int) async -> String? {
        var failures: [String] = []
        for _ in 0..<3 {
            do {
                let (response, duration) = try await RawConnection.timedExchange(port: port, "GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
                if response?.status == 200 { return nil }
                failures.append("\(response.map { "status \($0.status)" } ?? "closed unanswered") after \(duration)")
            } catch {
                failures.append("\(error)")
            }
        }
        return failures.joined(separator: "; ")
    }

    struct Body: Sendable, CustomTestStringConvertible {
        var testDescription: String
        var bytes: [UInt8]
        var query = ""
    }

    static let hostileBodies: [Body] = [
        Body(testDescription: "a processing instruction without data (17 bytes)", bytes: Array("<gpx><?pi?></gpx>".utf8)),
        Body(testDescription: "UTF-7 and one byte (39 bytes)", bytes: Array(#"<?xml version="1.0" encoding="UTF-7"?>"#.utf8) + [0xD0]),
        Body(testDescription: "Shift_JIS and one byte", bytes: Array(#"<?xml version="1.0" encoding="SHIFT_JIS"?>"#.utf8) + [0xD0]),
        Body(testDescription: "8 bytes of UTF-32-like XML", bytes: [0x00, 0x00, 0x00, 0x3C, 0x2B, 0x0D, 0x0D, 0x0A], query: ""),
        Body(
            testDescription: "a billion laughs",
            bytes: Array(
                #"<?xml version="1.0"?><!DOCTYPE gpx [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;"><!ENTITY c "&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;"><!ENTITY d "&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;">]><gpx><trk><name>&d;&d;&d;&d;&d;&d;</name></trk></gpx>"#
                    .utf8)),
        Body(testDescription: "a 16 KB zigzag of 40 million km", bytes: Array(Self.zigzag.utf8)),
        Body(
            testDescription: "20 stages that need 400,000 markers",
            bytes: Array(
                #"{"type":"MultiLineString","coordinates":[\#(Array(repeating: "[[0,0],[179.9,0]]", count: 20).joined(separator: ","))]}"#.utf8)),
        Body(
            testDescription: "a polyline past 100,000 km", bytes: Array(("??" + String(repeating: "?_v_ia@?~u_ia@", count: 30)).utf8),
            query: "?polyline=5"),
        Body(testDescription: "JSON nested 100,000 deep", bytes: Array(String(repeating: "[", count: 100_000).utf8)),
        Body(testDescription: "NaN coordinates", bytes: Array(#"{"type":"LineString","coordinates":[[NaN,0],[1,1]]}"#.utf8)),
    ]

    @Test("a hostile route body is a 400, and the service stays up", arguments: hostileBodies)
    func hostileBody(_ body: Body) async throws {
        try await LiveService.run { client in
            let response = try await client.execute(uri: "/v1/routes\(body.query)", method: .post, body: ByteBuffer(bytes: body.bytes))
            #expect(response.status == .badRequest, "\(response.status) \(response.text)")
            #expect(try ErrorBody(response).parameter == "body")
            #expect(try await Self.healthy(client))
        }
    }

    @Test("the markers per request are capped, naming the limit")
    func markerCap() async throws {
        var configuration = LiveService.configuration
        configuration.maximumRouteMarkers = 50
        try await LiveService.run(configuration) { client in
            // About 111 km: 110 distance markers, a start and an end.
            let line = #"{"type": "LineString", "coordinates": [[14, 45], [14, 46]]}"#
            let response = try await client.execute(uri: "/v1/routes?themes=day", method: .post, body: ByteBuffer(string: line))
            #expect(response.status == .badRequest)
            #expect(try ErrorBody(response).error.contains("more than the limit of 50"), "\(response.text)")
        }
    }

    @Test("image URLs do not depend on the Host header, however large")
    func hostIndependentURLs() async throws {
        try await LiveService.run { client in
            // The service's own request timeout is 60 s; a read that gave up sooner failed once in CI,
            // with every suite (browsers, MapLibre, the target tests' pools) running at once on two cores.
            let connection = try RawConnection(port: try #require(client.port), readTimeout: 60)
            let hugeHost = String(repeating: "h", count: 8000) + ".example"
            let body = RouteEndpointTests.shortLine
            await connection.send(
                "POST /v1/routes?themes=night HTTP/1.1\r\nHost: \(hugeHost)\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)")
            let response = try #require(await connection.readResponse())
            #expect(response.status == 200)
            #expect(!response.body.contains("hhhhhhhh"))
            let document = try JSONDecoder().decode(RouteEndpointTests.Document.self, from: Data(response.body.utf8))
            #expect(!document.features.isEmpty)
            let urls = document.images.values.flatMap { $0.map(\.url) } + document.sprite.map(\.url)
            #expect(urls.count == 3 * document.features.count + 1)
            #expect(urls.allSatisfy { $0.hasPrefix("/v1/icons/") || $0.hasPrefix("/v1/sprites/") })
        }
    }

    // MARK: Connections

    @Test("idle connections, and heads sent too slowly, are closed after the idle timeout")
    func idleConnectionsAreClosed() async throws {
        try await Exclusively.run {
            try await LiveService.run(Self.quick) { client in
                let port = try #require(client.port)
                // The idle timeout is 1 s; the reads allow 10: in one CI run, with every suite running at
                // once on two cores, a read that allowed 4 s did not see its connection closed.
                let idle = try (0..<200).map { _ in try RawConnection(port: port, readTimeout: 10) }
                let slowHead = try RawConnection(port: port, readTimeout: 10)
                await slowHead.send("GET /healthz HTTP/1.1\r\nHost: x\r\n")
                for (index, connection) in (idle + [slowHead]).enumerated() {
                    let ending = await connection.readUntilClosed()
                    #expect(ending == .closed(""), "connection \(index) of 201: \(ending)")
                }
                #expect(await Self.unhealthy(port: port) == nil)
            }
        }
    }

    @Test("a body trickled too slowly is cut off after the body timeout")
    func trickledBodyIsCut() async throws {
        try await Exclusively.run {
            try await LiveService.run(Self.quick) { client in
                let port = try #require(client.port)
                let connection = try RawConnection(port: port, readTimeout: 4)
                await connection.send("POST /v1/routes HTTP/1.1\r\nHost: x\r\nContent-Length: 1000\r\n\r\n{")
                let reader = Task { await connection.timedReadUntilClosed() }
                for _ in 0..<20 {
                    guard await connection.send(" ") else { break }
                    try await Task.sleep(for: .milliseconds(200))
                }
                let (ending, waited) = await reader.value
                guard case .closed = ending else {
                    Issue.record("still open after \(waited)")
                    return
                }
                // The body timeout is 1 s; however the trickle goes, the connection is gone soon after.
                #expect(waited < .seconds(3))
                #expect(await Self.unhealthy(port: port) == nil)
            }
        }
    }

    @Test("a body over the limit with Connection: close gets its 413, then the connection closes")
    func oversizedBodyCloses() async throws {
        var configuration = LiveService.configuration
        configuration.maximumRouteBytes = 10_000
        try await LiveService.run(configuration) { client in
            // Generous: this checks what the server does, not how soon; the whole test process
            // shares two cooperative threads with the service, and a loaded run once took over 5 s.
            let connection = try RawConnection(port: try #require(client.port), readTimeout: 30)
            // No Content-Length: the limit is only seen as the body arrives.
            await connection.send("POST /v1/routes HTTP/1.1\r\nHost: x\r\nConnection: close\r\nTransfer-Encoding: chunked\r\n\r\n")
            let chunk = String(repeating: "x", count: 4096)
            let reader = Task { await connection.readUntilClosed() }
            for _ in 0..<64 {
                guard await connection.send("1000\r\n\(chunk)\r\n") else { break }
            }
            await connection.send("0\r\n\r\n")
            let ending = await reader.value
            guard case .closed(let text) = ending else {
                Issue.record("the connection stayed open: \(ending)")
                return
            }
            #expect(text.hasPrefix("HTTP/1.1 413"), "\(text.prefix(200))")
        }
    }

    @Test("a malformed chunk size is a 400, not a 500")
    func malformedChunk() async throws {
        try await LiveService.run { client in
            let connection = try RawConnection(port: try #require(client.port))
            await connection.send("POST /v1/routes HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n{}\r\n0\r\n\r\n")
            let response = try #require(await connection.readResponse())
            #expect(response.status == 400, "\(response.headers)")
            #expect(try await Self.healthy(client))
        }
    }

    @Test(
        "a wrong method on a known path is a 405 with Allow",
        arguments: [
            ("/v1/marker.png", HTTPRequest.Method.post, "GET, HEAD"), ("/v1/routes", .get, "POST"),
            ("/healthz", .delete, "GET, HEAD"), ("/v1/images/end-1km-day@1x-0000000000.png", .put, "GET, HEAD"),
        ])
    func wrongMethod(path: String, method: HTTPRequest.Method, allow: String) async throws {
        try await LiveService.run { client in
            let response = try await client.execute(uri: path, method: method)
            #expect(response.status == .methodNotAllowed)
            #expect(response.headers[.allow] == allow)
            #expect(try ErrorBody(response).error.contains(allow))
        }
    }

    // MARK: CORS

    @Test("images and routes carry CORS headers; a preflight is answered")
    func cors() async throws {
        try await LiveService.run { client in
            let image = try await client.execute(uri: "/v1/marker.png?distance=5", method: .get, headers: [.origin: "https://maps.example"])
            #expect(image.headers[.accessControlAllowOrigin] == "*")
            let preflight = try await client.execute(
                uri: "/v1/routes", method: .options,
                headers: [.origin: "https://maps.example", .accessControlRequestMethod: "POST", .accessControlRequestHeaders: "content-type"])
            #expect(preflight.status == .noContent)
            #expect(preflight.headers[.accessControlAllowOrigin] == "*")
            #expect(preflight.headers[.accessControlAllowMethods]?.contains("POST") == true)
            #expect(preflight.headers[.accessControlAllowHeaders]?.lowercased().contains("content-type") == true)
        }
    }

    @Test("a configured origin list answers listed origins only")
    func corsOriginList() async throws {
        var configuration = LiveService.configuration
        configuration.corsOrigins = ["https://maps.example"]
        try await LiveService.run(configuration) { client in
            let listed = try await client.execute(uri: "/healthz", method: .get, headers: [.origin: "https://maps.example"])
            #expect(listed.headers[.accessControlAllowOrigin] == "https://maps.example")
            #expect(listed.headers[.vary]?.contains("Origin") == true)
            let other = try await client.execute(uri: "/healthz", method: .get, headers: [.origin: "https://evil.example"])
            #expect(other.headers[.accessControlAllowOrigin] == nil)
        }
    }
}
