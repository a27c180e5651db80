import Foundation
import HTTPTypes
import HummingbirdTesting
import MarkerRender
import MarkerService
import MarkerSpec
import NIOCore
import Testing

/// `GET /v1/marker.png` and `GET /v1/images/<name>.png` over real HTTP.
@Suite("Marker images by query and by name")
struct MarkerEndpointTests {
    struct Case: Sendable, CustomTestStringConvertible {
        let query: String
        let kind: Marker.Kind
        let distance: Double
        let theme: Theme
        let scale: MarkerScale
        let unit: Marker.Unit
        var mark = Label.DecimalMark.point
        var precision = Label.Precision.standard
        var testDescription: String { query.isEmpty ? "(no query)" : query }
    }

    static let cases: [Case] = [
        Case(query: "distance=123&kind=end&theme=night&scale=2&unit=km", kind: .end, distance: 123, theme: .night, scale: 2, unit: .km),
        Case(query: "distance=10", kind: .distance, distance: 10, theme: .day, scale: 2, unit: .km),
        Case(query: "distance=7.5&unit=mi&scale=1", kind: .distance, distance: 7.5, theme: .day, scale: 1, unit: .mi),
        Case(query: "distance=12.5&unit=nmi&kind=end&theme=night", kind: .end, distance: 12.5, theme: .night, scale: 2, unit: .nmi),
        Case(query: "distance=7.46&locale=de", kind: .distance, distance: 7.5, theme: .day, scale: 2, unit: .km, mark: .comma),
        Case(
            query: "distance=0.4&unit=nmi&kind=end&locale=fr-CA&scale=1", kind: .end, distance: 0.4, theme: .day, scale: 1, unit: .nmi, mark: .comma),
        // A whole number reads the same in every locale: the same picture, at the same URL.
        Case(query: "distance=12&locale=de", kind: .distance, distance: 12, theme: .day, scale: 2, unit: .km),
        Case(query: "distance=7.5&locale=de-CH", kind: .distance, distance: 7.5, theme: .day, scale: 2, unit: .km),
        Case(query: "distance=123&kind=end&scale=4", kind: .end, distance: 123, theme: .day, scale: 4, unit: .km),
        Case(query: "distance=123&kind=end&theme=night&scale=1.5", kind: .end, distance: 123, theme: .night, scale: .oneAndAHalf, unit: .km),
        Case(query: "distance=45&kind=countdown&theme=night", kind: .countdown, distance: 45, theme: .night, scale: 2, unit: .km),
        Case(query: "distance=10.5&interval=0.5", kind: .distance, distance: 10.5, theme: .day, scale: 2, unit: .km, precision: .tenths),
        Case(
            query: "distance=123.46&interval=0.1&locale=de&kind=end", kind: .end, distance: 123.46, theme: .day, scale: 2, unit: .km,
            mark: .comma, precision: .tenths),
        Case(query: "kind=start&theme=night&scale=3", kind: .start, distance: 0, theme: .night, scale: 3, unit: .km),
        Case(query: "kind=start&distance=0", kind: .start, distance: 0, theme: .day, scale: 2, unit: .km),
        // Counting on across stages, a start reads the distance so far.
        Case(query: "kind=start&distance=75", kind: .start, distance: 75, theme: .day, scale: 2, unit: .km),
        Case(query: "distance=100000&kind=end", kind: .end, distance: 100_000, theme: .day, scale: 2, unit: .km),
        Case(query: "theme=night&distance=0", kind: .distance, distance: 0, theme: .night, scale: 2, unit: .km),
    ]

    @Test("a query gives the CLI's PNG with its type, tag, short caching and hashed URL", arguments: cases)
    func markerByQuery(_ marker: Case) async throws {
        let expected = try LiveService.reference(
            marker.kind, marker.distance, theme: marker.theme, scale: marker.scale, unit: marker.unit, mark: marker.mark,
            precision: marker.precision)
        try await LiveService.run { client in
            let response = try await client.execute(uri: "/v1/marker.png?\(marker.query)", method: .get)
            #expect(response.status == .ok)
            #expect(response.bytes == expected.png)
            #expect(response.headers[.contentType] == "image/png")
            #expect(response.headers[.eTag] == "\"\(expected.image.sha256)\"")
            #expect(response.headers[.cacheControl] == "public, max-age=300")
            #expect(response.headers[.contentLocation] == "/v1/images/\(expected.image.fileName)")
        }
    }

    @Test("the hashed URL a query names serves the same bytes, cacheable forever")
    func namedImageFromContentLocation() async throws {
        let expected = try LiveService.reference(.end, 123, theme: .night)
        try await LiveService.run { client in
            let byQuery = try await client.execute(uri: "/v1/marker.png?distance=123&kind=end&theme=night", method: .get)
            let location = try #require(byQuery.headers[.contentLocation])
            let byName = try await client.execute(uri: location, method: .get)
            #expect(byName.status == .ok)
            #expect(byName.bytes == expected.png)
            #expect(byName.headers[.contentType] == "image/png")
            #expect(byName.headers[.eTag] == "\"\(expected.image.sha256)\"")
            #expect(byName.headers[.cacheControl] == "public, max-age=31536000, immutable")
        }
    }

    @Test(
        "/v1/marker.svg and .pdf give the CLI's --format document, its type and tag, and a hashed URL that serves it for good",
        arguments: [ImageFormat.svg, .pdf])
    func markerDocument(format: ImageFormat) async throws {
        let request = try MarkerRequest(marker: Marker(kind: .end, distance: 123), theme: .night, scale: .oneAndAHalf)
        let expected = try MarkerRenderer().renderDocument(request, format: format)
        try await LiveService.run { client in
            let byQuery = try await client.execute(uri: "/v1/marker.\(format.rawValue)?distance=123&kind=end&theme=night&scale=1.5", method: .get)
            #expect(byQuery.status == .ok)
            #expect(byQuery.bytes == expected.bytes)
            #expect(byQuery.headers[.contentType] == (format == .svg ? "image/svg+xml" : "application/pdf"))
            #expect(byQuery.headers[.eTag] == "\"\(expected.image.sha256)\"")
            #expect(byQuery.headers[.contentLocation] == "/v1/images/\(expected.image.fileName)")
            // The PNG of the same marker is another file, under another name.
            let png = try await client.execute(uri: "/v1/marker.png?distance=123&kind=end&theme=night&scale=1.5", method: .get)
            #expect(png.headers[.contentType] == "image/png" && png.bytes != byQuery.bytes)
            let byName = try await client.execute(uri: "/v1/images/\(expected.image.fileName)", method: .get)
            #expect(byName.status == .ok && byName.bytes == expected.bytes)
            #expect(byName.headers[.cacheControl] == "public, max-age=31536000, immutable")
            // A name whose hash is the PNG's is not the document's.
            let pngPath = try #require(png.headers[.contentLocation])
            let wrongHash = try await client.execute(uri: pngPath.dropLast(4) + format.fileExtension, method: .get)
            #expect(wrongHash.status == .notFound)
        }
    }

    @Test(
        "a name this instance never served is drawn from the name alone",
        arguments: [
            (Marker.Kind.distance, 7.5, Theme.night, 1, Marker.Unit.mi), (.start, 0, .day, 3, .km), (.end, 99999, .night, 2, .km),
        ])
    func unseenName(kind: Marker.Kind, distance: Double, theme: Theme, scale: MarkerScale, unit: Marker.Unit) async throws {
        let expected = try LiveService.reference(kind, distance, theme: theme, scale: scale, unit: unit)
        try await LiveService.run { client in
            let response = try await client.execute(uri: "/v1/images/\(expected.image.fileName)", method: .get)
            #expect(response.status == .ok)
            #expect(response.bytes == expected.png)
        }
    }

    @Test("distances that print the same label share one image and one name")
    func sameLabelSameImage() async throws {
        try await LiveService.run { client in
            let whole = try await client.execute(uri: "/v1/marker.png?distance=123", method: .get)
            let fraction = try await client.execute(uri: "/v1/marker.png?distance=123.2", method: .get)
            #expect(whole.bytes == fraction.bytes)
            #expect(whole.headers[.contentLocation] == fraction.headers[.contentLocation])
        }
    }

    static let matchingTags: [String] = ["TAG", "W/TAG", "\"other\", TAG", "W/\"other\" ,  W/TAG", "*"]

    @Test("If-None-Match naming the image gives 304 with the tag and no body", arguments: matchingTags)
    func notModified(_ header: String) async throws {
        let expected = try LiveService.reference(.end, 123, theme: .night)
        let ifNoneMatch = header.replacingOccurrences(of: "TAG", with: "\"\(expected.image.sha256)\"")
        try await LiveService.run { client in
            for uri in ["/v1/marker.png?distance=123&kind=end&theme=night", "/v1/images/\(expected.image.fileName)"] {
                let response = try await client.execute(uri: uri, method: .get, headers: [.ifNoneMatch: ifNoneMatch])
                #expect(response.status == .notModified, "\(uri)")
                #expect(response.body.readableBytes == 0)
                #expect(response.headers[.eTag] == "\"\(expected.image.sha256)\"")
            }
        }
    }

    @Test("If-None-Match naming other bytes gives the image", arguments: ["\"0000\"", "W/\"abc\", \"def\"", "TAGX"])
    func modified(_ header: String) async throws {
        let expected = try LiveService.reference(.distance, 10)
        let ifNoneMatch = header.replacingOccurrences(of: "TAG", with: "\"\(expected.image.sha256)")
        try await LiveService.run { client in
            let response = try await client.execute(uri: "/v1/marker.png?distance=10", method: .get, headers: [.ifNoneMatch: ifNoneMatch])
            #expect(response.status == .ok)
            #expect(response.bytes == expected.png)
        }
    }

    @Test("HEAD gives the headers of GET without the body")
    func head() async throws {
        let expected = try LiveService.reference(.distance, 42)
        try await LiveService.run { client in
            let response = try await client.execute(uri: "/v1/marker.png?distance=42", method: .head)
            #expect(response.status == .ok)
            #expect(response.body.readableBytes == 0)
            #expect(response.headers[.eTag] == "\"\(expected.image.sha256)\"")
            #expect(response.headers[.contentLength] == String(expected.png.count))
        }
    }

    /// Names that must not serve an image: malformed, non-canonical, or with a hash that does not match.
    static let badNames: [String] = [
        "end-123km-night@2x-0000000000.png",  // hash of some other picture
        "end-123km-night@2x.png",  // no hash
        "end-123km-night@2x-38A2D63FE2.png",  // upper-case hex is not how names are written
        "end-123.0km-night@2x-38a2d63fe2.png",  // not the label the marker prints
        "end-123km-dusk@2x-38a2d63fe2.png",  // unknown theme
        "end-123km-night@4x-38a2d63fe2.png",  // scale out of range
        "start-5km-day@2x-38a2d63fe2.png",  // a start marker is always 0
        "end-123km-night@2x-38a2d63fe2",  // no .png
        "end-123km-night@2x-38a2d63fe2.jpg",
        "..%2F..%2Fetc%2Fpasswd",
        "x",
    ]

    @Test("a name that does not parse or whose hash does not match is a JSON 404", arguments: badNames)
    func badName(_ name: String) async throws {
        try await LiveService.run { client in
            let response = try await client.execute(uri: "/v1/images/\(name)", method: .get)
            #expect(response.status == .notFound)
            #expect(response.headers[.contentType] == "application/json; charset=utf-8")
            #expect(try ErrorBody(response).error.contains("no such image"))
        }
    }

    @Test("the right name under the right hash but a wrong one is told apart")
    func hashMismatchNextToMatch() async throws {
        let expected = try LiveService.reference(.end, 123, theme: .night)
        let wrongHash = expected.image.fileName.replacingOccurrences(of: expected.image.sha256.prefix(10), with: "0123456789")
        try await LiveService.run { client in
            let right = try await client.execute(uri: "/v1/images/\(expected.image.fileName)", method: .get)
            let wrong = try await client.execute(uri: "/v1/images/\(wrongHash)", method: .get)
            #expect(right.status == .ok)
            #expect(wrong.status == .notFound)
        }
    }
}
