import Foundation
import HTTPTypes
import HummingbirdTesting
import MarkerPins
import MarkerService
import MarkerSpec
import NIOCore
import TestSupport
import Testing

/// `GET /v1/pin.png`, `GET /v1/callout.png` and `POST /v1/callout.png` over real HTTP.
@Suite("Pins and callouts by query")
struct PictureEndpointTests {
    @Test("a pin by query is the CLI's pin: type, tag, short caching", arguments: ["png", "svg", "pdf"])
    func pin(format: String) async throws {
        let request = try PinRequest(pin: Pin(icon: .water, colour: Colour(css: "#8E24AA")), theme: .night, scale: .oneAndAHalf)
        let expected = try PinRenderer().render(request, format: ImageFormat(rawValue: format) ?? .png)
        try await LiveService.run { client in
            let response = try await client.execute(uri: "/v1/pin.\(format)?icon=water&color=%238E24AA&theme=night&scale=1.5", method: .get)
            #expect(response.status == .ok)
            #expect(response.bytes == expected.bytes)
            #expect(response.headers[.contentType] == expected.image.format.mediaType)
            #expect(response.headers[.eTag] == "\"\(expected.image.sha256)\"")
            #expect(response.headers[.cacheControl] == "public, max-age=300")
        }
    }

    @Test("a callout by query, its lines repeated in order; with a photo by POST")
    func callout() async throws {
        let photo = Array(try Data(contentsOf: Repository.root.appendingPathComponent("Tests/Fixtures/photos/lake.jpg")))
        let renderer = try CalloutRenderer()
        let plain = try renderer.render(
            try CalloutRequest(callout: Callout(title: "Water at Koča", lines: ["Tap by the door", "1,226 m"], badge: .init(text: "open")), theme: .day, scale: 2))
        let withPhoto = try renderer.render(try CalloutRequest(callout: Callout(title: "Jezero", photo: photo), theme: .night, scale: 1))
        try await LiveService.run { client in
            let query = "title=Water%20at%20Ko%C4%8Da&line=Tap+by+the+door&line=1%2C226%20m&badge=open"
            let response = try await client.execute(uri: "/v1/callout.png?" + query, method: .get)
            #expect(response.status == .ok)
            #expect(response.bytes == plain.bytes)
            let posted = try await client.execute(uri: "/v1/callout.png?title=Jezero&theme=night&scale=1", method: .post, body: ByteBuffer(bytes: photo))
            #expect(posted.status == .ok)
            #expect(posted.bytes == withPhoto.bytes)
        }
    }

    @Test(
        "bad parameters and bad photos are a 400 naming the parameter, never a 5xx",
        arguments: [
            ("/v1/pin.png", "icon", "required"),
            ("/v1/pin.png?icon=tree", "icon", "is not one of water"),
            ("/v1/pin.png?icon=water&text=A", "text", "and icon both"),
            ("/v1/pin.png?text=ABCD", "text", "must be 1 to 3 characters"),
            ("/v1/pin.png?icon=water&color=blue", "color", "is not #RRGGBB"),
            ("/v1/pin.png?icon=water&scale=5", "scale", "must be 1, 1.5, 2, 3 or 4"),
            ("/v1/pin.png?icon=water&file=x", "file", "unknown"),
            ("/v1/callout.png?line=x", "title", "required"),
            ("/v1/callout.png?title=a&title=b", "title", "given more than once"),
            ("/v1/callout.png?title=a" + String(repeating: "&line=b", count: 7), "line", "at most 6 detail lines"),
            ("/v1/callout.png?title=" + String(repeating: "a", count: 201), "title", "at most 200"),
            ("/v1/callout.png?title=a&badgeColor=%23ff0000&badge=" + String(repeating: "b", count: 25), "badge", "at most 24"),
        ] as [(String, String, String)])
    func refusals(uri: String, parameter: String, words: String) async throws {
        try await LiveService.run { client in
            let response = try await client.execute(uri: uri, method: .get)
            #expect(response.status == .badRequest, "\(uri): \(response.status)")
            let body = String(decoding: response.bytes, as: UTF8.self)
            #expect(body.contains("\"parameter\":\"\(parameter)\"") && body.contains(words), "\(uri): \(body)")
        }
    }

    @Test("a photo claiming 40,000 × 40,000 pixels, a truncated one, or no photo at all: 400", arguments: ["claims-40000.jpg", "lake-truncated.jpg", "claims-40000.png"])
    func badPhotos(name: String) async throws {
        let bytes = Array(try Data(contentsOf: Repository.root.appendingPathComponent("Tests/Fixtures/photos/\(name)")))
        try await LiveService.run { client in
            let response = try await client.execute(uri: "/v1/callout.png?title=x", method: .post, body: ByteBuffer(bytes: bytes))
            #expect(response.status == .badRequest)
            #expect(String(decoding: response.bytes, as: UTF8.self).contains("\"parameter\":\"body\""))
            let text = try await client.execute(uri: "/v1/callout.png?title=x", method: .post, body: ByteBuffer(string: "hello"))
            #expect(text.status == .badRequest)
        }
    }
}
