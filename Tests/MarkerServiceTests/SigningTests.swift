import Foundation
import Hummingbird
import HummingbirdTesting
import MarkerQuery
import MarkerRender
import MarkerSpec
import SystemPackage
import TestSupport
import Testing

@testable import MarkerService

/// Signed URLs: with a key, every URL for content drawn by name carries an HMAC of what it names,
/// and one that does not verify is refused before anything is drawn.
@Suite("Signed URLs")
struct SigningTests {
    /// 32 random bytes in hex and base64url, as an operator makes them (`openssl rand -hex 32`).
    static let hexKey = "8f3a1c2b7d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f60718293a4b5c6d7e8"
    static let base64Key = "q83vEjRWeJCrze8SNFZ4kKvN7xI0VniQq83vEjRWeJA"

    /// Writes `text` as a key file in a new folder and returns its path.
    static func keyFile(_ text: String) throws -> String {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("keys-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let path = folder.appendingPathComponent("keys").path
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    static func configuration(keys: String?) throws -> ServiceConfiguration {
        var configuration = LiveService.configuration
        configuration.signingKeyFile = try keys.map(keyFile)
        return configuration
    }

    /// How many images the service has drawn, from its own metrics.
    static func draws(_ client: LiveClient) async throws -> Int {
        let text = try await client.execute(uri: "/metrics", method: .get).text
        let line = text.split(separator: "\n").first { $0.hasPrefix("markerpaint_render_duration_seconds_count") }
        return line.flatMap { Int($0.split(separator: " ").last ?? "") } ?? 0
    }

    @Test(
        "key files: hex, base64url (padded or not), comments and blank lines; the first key signs, every key verifies",
        arguments: [
            "\(hexKey)\n", "# rotated on 2026-11-24\n\n\(base64Key)\n\(hexKey)\n", "\(base64Key)=\r\n", "  \(hexKey.uppercased())  \n",
        ])
    func keyFiles(text: String) throws {
        let signer = try URLSigner(keyFile: FilePath(try Self.keyFile(text)))
        let signature = signer.signature(.sprites, "day_km_d1-3-0123456789")
        #expect(signature.utf8.count == 22)
        #expect(signer.verifies(signature, .sprites, "day_km_d1-3-0123456789"))
        #expect(!signer.verifies(signature, .icons, "day_km_d1-3-0123456789"), "a signature opens one endpoint only")
        #expect(!signer.verifies(signature, .sprites, "day_km_d1-4-0123456789"))
        // Rotation: a URL signed by the old key still verifies where the new one signs and the old one is kept.
        let old = try URLSigner(keyFile: FilePath(try Self.keyFile(Self.hexKey)))
        let rotated = try URLSigner(keyFile: FilePath(try Self.keyFile("\(Self.base64Key)\n\(Self.hexKey)\n")))
        #expect(rotated.verifies(old.signature(.icons, "end-1km-day-0123456789"), .icons, "end-1km-day-0123456789"))
    }

    @Test(
        "a bad key file is one line naming the file and the problem, never a key",
        arguments: [
            ("", "holds no key"), ("# only a comment\n\n", "holds no key"), ("0123456789abcdef\n", "line 1 is 8 bytes"),
            ("\(hexKey)\nnot a key!\n", "line 2 is not a key"), ("\(hexKey)\n\(hexKey.prefix(62))\n", "line 2 is 31 bytes"),
            (String(repeating: "a", count: 70_000), "larger than 65536 bytes"),
            (String(repeating: hexKey + "\n", count: 17), "holds more than 16 keys (line 17)"),
        ])
    func badKeyFiles(text: String, problem: String) throws {
        let path = try Self.keyFile(text)
        #expect {
            _ = try URLSigner(keyFile: FilePath(path))
        } throws: { error in
            let message = "\(error)"
            return message.contains(path) && message.contains(problem) && !message.contains(Self.hexKey.prefix(16)) && !message.contains("\n")
        }
        #expect(throws: ServiceConfiguration.Invalid.self) { try URLSigner(keyFile: FilePath(path + "-missing")) }
    }

    @Test("signatures are 128 bits of base64url, canonical: a changed or re-spelled character is refused")
    func tampering() throws {
        let signer = URLSigner(keys: [Array(repeating: 7, count: 32)])
        let signature = signer.signature(.images, "end-1km-day@2x-0123456789.png")
        #expect(Base64URL.decode(signature)?.count == 16)
        for index in signature.indices {
            var changed = signature
            changed.replaceSubrange(index...index, with: signature[index] == "A" ? "B" : "A")
            #expect(!signer.verifies(changed, .images, "end-1km-day@2x-0123456789.png"))
        }
        #expect(!signer.verifies(signature + "A", .images, "end-1km-day@2x-0123456789.png"))
        #expect(!signer.verifies(String(signature.dropLast()), .images, "end-1km-day@2x-0123456789.png"))
        // 22 characters hold 132 bits: the last character's 4 spare bits must be zero.
        #expect(Base64URL.decode("AAAAAAAAAAAAAAAAAAAAAB") == nil)
        #expect(Base64URL.decode("AAAAAAAAAAAAAAAAAAAAAA")?.count == 16)
        #expect(Base64URL.encode(Array("any carnal pleas".utf8)) == "YW55IGNhcm5hbCBwbGVhcw")
    }

    @Test("a route document's icon and sprite URLs are signed, and each serves its content")
    func routeDocumentIsSigned() async throws {
        let gpx = try sharedRouteBytes("route.gpx")
        try await LiveService.run(try Self.configuration(keys: Self.hexKey)) { client in
            let response = try await client.execute(uri: "/v1/routes?themes=night", method: .post, body: ByteBuffer(bytes: gpx))
            #expect(response.status == .ok)
            let document = try #require(try JSONSerialization.jsonObject(with: Data(response.body.readableBytesView)) as? [String: Any])
            let images = try #require(document["images"] as? [String: [[String: Any]]])
            let sheets = try #require(document["sprite"] as? [[String: Any]])
            var urls = images.values.flatMap { $0.compactMap { $0["url"] as? String } }
            urls += sheets.compactMap { $0["url"] as? String }.flatMap { [$0 + ".json", $0 + "@2x.png"] }
            #expect(urls.count > 10)
            for url in urls {
                // /v1/<kind>/<22 characters of signature>/<file>
                let segments = url.split(separator: "/")
                #expect(segments.count == 4 && segments[2].utf8.count == 22, "\(url)")
                let served = try await client.execute(uri: url, method: .get)
                #expect(served.status == .ok, "\(url)")
                #expect(served.headers[.cacheControl] == "public, max-age=31536000, immutable")
                // The same file without its signature, or with another's, is refused.
                let unsigned = "/" + [segments[0], segments[1], segments[3]].joined(separator: "/")
                #expect(try await client.execute(uri: unsigned, method: .get).status == .forbidden, "\(unsigned)")
            }
        }
    }

    @Test("progress lines' icon URLs are signed, and each serves its countdown marker")
    func progressIsSigned() async throws {
        let gpx = try sharedRouteBytes("route.gpx")
        let form = ProgressEndpointTests.Form([("route", "route.gpx", gpx), ("fixes", "route.gpx", gpx)])
        try await LiveService.run(try Self.configuration(keys: Self.hexKey)) { client in
            let response = try await client.execute(
                uri: "/v1/progress?themes=night", method: .post, headers: ProgressEndpointTests.Form.headers, body: ByteBuffer(bytes: form.body))
            #expect(response.status == .ok)
            let icons = Set(try ProgressEndpointTests.lines(response).compactMap(\.line.icon))
            #expect(icons.count > 1)
            for url in icons {
                let segments = url.split(separator: "/")
                #expect(segments.count == 4 && segments[2].utf8.count == 22, "\(url)")
                #expect(try await client.execute(uri: url, method: .get).status == .ok, "\(url)")
                let unsigned = "/" + [segments[0], segments[1], segments[3]].joined(separator: "/")
                #expect(try await client.execute(uri: unsigned, method: .get).status == .forbidden, "\(unsigned)")
            }
        }
    }

    @Test(
        "an unsigned or forged URL is refused with 403 before anything is drawn",
        arguments: [
            "/v1/sprites/day_km_d1-900-0123456789@2x.png", "/v1/sprites/AAAAAAAAAAAAAAAAAAAAAA/day_km_d1-900-0123456789@2x.png",
            "/v1/icons/AAAAAAAAAAAAAAAAAAAAAA/end-123km-night-0123456789@3x.png", "/v1/images/end-7km-day@2x-0123456789.png",
            "/v1/images/not-even-base64!/end-7km-day@2x-0123456789.png",
        ])
    func forgedIsRefused(path: String) async throws {
        try await LiveService.run(try Self.configuration(keys: Self.hexKey)) { client in
            let before = try await Self.draws(client)
            let response = try await client.execute(uri: path, method: .get)
            #expect(response.status == .forbidden)
            #expect(try ErrorBody(response).error.contains("sign"))
            #expect(try await Self.draws(client) == before, "a refused URL drew images")
        }
    }

    @Test("a marker asked for by query names its signed image URL, which serves the same bytes; without a key, the plain one")
    func contentLocationIsSigned() async throws {
        let reference = try LiveService.reference(.end, 123, theme: .night)
        for keys in [Self.hexKey, nil] {
            try await LiveService.run(try Self.configuration(keys: keys)) { client in
                let response = try await client.execute(uri: "/v1/marker.png?distance=123&kind=end&theme=night", method: .get)
                let location = try #require(response.headers[.contentLocation])
                #expect(location.hasSuffix("/" + reference.image.fileName))
                #expect(location.split(separator: "/").count == (keys == nil ? 3 : 4), "\(location)")
                let named = try await client.execute(uri: location, method: .get)
                #expect(named.status == .ok)
                #expect(named.bytes == reference.png)
                #expect(named.headers[.eTag] == response.headers[.eTag])
                if keys == nil {
                    // A service without a key signs nothing, so a signed-looking URL names nothing.
                    let signed = "/v1/images/AAAAAAAAAAAAAAAAAAAAAA/" + reference.image.fileName
                    #expect(try await client.execute(uri: signed, method: .get).status == .notFound)
                }
            }
        }
    }

    @Test("instances sharing a key serve each other's signed URLs with the same bytes and ETag; rotated keys still verify")
    func instancesShareKeys() async throws {
        let gpx = try sharedRouteBytes("korita-zbevnica.gpx")
        let issuer = try Self.configuration(keys: Self.hexKey)
        let other = try Self.configuration(keys: "\(Self.base64Key)\n\(Self.hexKey)\n")
        let body = try await LiveService.run(issuer) { client in
            try await client.execute(uri: "/v1/routes?themes=day", method: .post, body: ByteBuffer(bytes: gpx)).bytes
        }
        let document = try #require(try JSONSerialization.jsonObject(with: Data(body)) as? [String: Any])
        let images = try #require(document["images"] as? [String: [[String: Any]]])
        let sheet = try #require((document["sprite"] as? [[String: Any]])?.first?["url"] as? String)
        let urls = images.values.compactMap { $0.first?["url"] as? String }.prefix(4) + [sheet + "@2x.png", sheet + ".json"]
        var answers: [[String: (bytes: [UInt8], tag: String?)]] = []
        for configuration in [issuer, other] {
            answers.append(
                try await LiveService.run(configuration) { client in
                    var answer: [String: (bytes: [UInt8], tag: String?)] = [:]
                    for url in urls {
                        let response = try await client.execute(uri: url, method: .get)
                        #expect(response.status == .ok, "\(url)")
                        answer[url] = (response.bytes, response.headers[.eTag])
                    }
                    return answer
                })
        }
        for url in urls {
            #expect(answers[0][url]?.bytes == answers[1][url]?.bytes, "\(url)")
            #expect(answers[0][url]?.tag == answers[1][url]?.tag, "\(url)")
        }
    }
}
