import Foundation
import Hummingbird
import HummingbirdTesting
import MarkerRender
import MarkerService
import MarkerSpec
import TestSupport
import Testing

/// `POST /v1/routes`: a route in, markers.geojson with absolute image URLs out.
@Suite("Route marker documents")
struct RouteEndpointTests {
    /// About 2.5 km due north: a start, markers at 1 and 2 km, and an end.
    static let shortLine = #"{"type": "LineString", "coordinates": [[14.0, 46.0], [14.0, 46.01], [14.0, 46.0225]]}"#
    /// (46, 14) → (46.02, 14) → (46.02, 14.03), about 4.5 km, as a precision-5 polyline.
    static let shortPolyline = "_kwwG_kmtA_|B??ozD"

    /// The parts of markers.geojson the tests look at.
    struct Document: Decodable {
        struct Feature: Decodable {
            struct Geometry: Decodable {
                let type: String
                let coordinates: [Double]
            }
            struct Properties: Decodable {
                let kind: String
                let stage: Int
                let distance: Double
                let unit: String
                let label: String
                let icon: [String: String]
            }
            let geometry: Geometry
            let properties: Properties
        }
        let type: String
        let features: [Feature]

        init(_ response: TestResponse) throws {
            self = try JSONDecoder().decode(Document.self, from: Data(response.body.readableBytesView))
        }
    }

    /// Fetches every icon by the path of its URL and checks it is the image its name describes,
    /// for the marker the feature describes.
    static func checkIcons(
        of document: Document, origin: String, themes: [String], scale: Int,
        client: some TestClientProtocol
    ) async throws {
        for feature in document.features {
            #expect(Set(feature.properties.icon.keys) == Set(themes))
            for (themeName, url) in feature.properties.icon {
                #expect(url.hasPrefix("\(origin)/v1/images/"), "\(url)")
                let fileName = String(url.dropFirst("\(origin)/v1/images/".count))
                let name = try #require(ImageName.parse(fileName))
                #expect(name.request.marker.kind.rawValue == feature.properties.kind)
                #expect(name.request.marker.label == feature.properties.label)
                #expect(name.request.theme.name == themeName)
                #expect(name.request.scale == scale)
                let expected = try MarkerRenderer().render(name.request)
                #expect(expected.image.fileName == fileName)
                let image = try await client.execute(uri: "/v1/images/\(fileName)", method: .get)
                #expect(image.status == .ok)
                #expect(image.bytes == expected.png)
            }
        }
    }

    @Test("a GeoJSON line gives every marker with both themes' image URLs, as paths on the service")
    func geoJSON() async throws {
        try await LiveService.run { client in
            let response = try await client.execute(uri: "/v1/routes", method: .post, body: ByteBuffer(string: Self.shortLine))
            #expect(response.status == .ok)
            #expect(response.headers[.contentType] == "application/geo+json")
            let document = try Document(response)
            #expect(document.type == "FeatureCollection")
            #expect(document.features.map(\.properties.kind) == ["start", "distance", "distance", "end"])
            #expect(document.features.map(\.properties.label) == ["0km", "1km", "2km", "2.5km"])
            #expect(document.features.first?.geometry.coordinates == [14.0, 46.0])
            #expect(document.features.last?.geometry.coordinates == [14.0, 46.0225])
            try await Self.checkIcons(of: document, origin: "", themes: ["day", "night"], scale: 2, client: client)
        }
    }

    @Test("a real GPX route gives consecutive markers from start to end")
    func gpx() async throws {
        let gpx = try sharedRouteBytes("route.gpx")
        try await LiveService.run { client in
            let response = try await client.execute(uri: "/v1/routes?themes=night&scale=3", method: .post, body: ByteBuffer(bytes: gpx))
            #expect(response.status == .ok)
            let document = try Document(response)
            // A loop: its start and end are one marker, reading 0 and the total.
            let kinds = document.features.map(\.properties.kind)
            #expect(kinds.first == "combined" && kinds.filter { $0 != "distance" }.count == 1)
            #expect(document.features.first?.properties.label == "start0km_end6.7km")
            let distances = document.features.filter { $0.properties.kind == "distance" }.map(\.properties.distance)
            #expect(!distances.isEmpty)
            #expect(distances == (1...distances.count).map(Double.init))
            let end = try #require(document.features.first?.properties.distance)
            #expect(end > Double(distances.count) && end < Double(distances.count + 1))
            try await Self.checkIcons(of: document, origin: "", themes: ["night"], scale: 3, client: client)
        }
    }

    @Test("a polyline needs its precision; miles and stage-by-stage counting come from the query")
    func polyline() async throws {
        try await LiveService.run { client in
            let response = try await client.execute(
                uri: "/v1/routes?polyline=5&unit=mi&themes=day&scale=1",
                method: .post, body: ByteBuffer(string: Self.shortPolyline))
            #expect(response.status == .ok)
            let document = try Document(response)
            // About 4.5 km is 2.8 miles.
            #expect(document.features.map(\.properties.label) == ["0mi", "1mi", "2mi", "2.8mi"])
            #expect(document.features.allSatisfy { $0.properties.unit == "mi" })
            try await Self.checkIcons(of: document, origin: "", themes: ["day"], scale: 1, client: client)
        }
    }

    @Test(
        "cumulative counting carries distance across stages",
        arguments: [
            (false, ["0km", "1km", "1.1km", "0km", "1km", "1.1km"]),
            // Counting on, the second stage starts where 1.1 km were counted.
            (true, ["0km", "1km", "1.1km", "1.1km", "2km", "2.2km"]),
        ])
    func cumulative(cumulative: Bool, labels: [String]) async throws {
        // Two stages of about 1.1 km each.
        let twoStages = #"{"type": "MultiLineString", "coordinates": [[[14.0, 46.0], [14.0, 46.01]], [[15.0, 46.0], [15.0, 46.01]]]}"#
        try await LiveService.run { client in
            let response = try await client.execute(
                uri: "/v1/routes?themes=day&cumulative=\(cumulative)",
                method: .post, body: ByteBuffer(string: twoStages))
            #expect(response.status == .ok)
            #expect(try Document(response).features.map(\.properties.label) == labels)
        }
    }

    @Test("a configured public URL makes image URLs absolute")
    func publicBaseURL() async throws {
        var configuration = LiveService.configuration
        configuration.publicBaseURL = "https://markers.example.com"
        try await LiveService.run(configuration) { client in
            let response = try await client.execute(uri: "/v1/routes?themes=day", method: .post, body: ByteBuffer(string: Self.shortLine))
            let document = try Document(response)
            #expect(document.features.allSatisfy { $0.properties.icon["day"]?.hasPrefix("https://markers.example.com/v1/images/") == true })
        }
    }

    @Test(
        "a body over the configured limit is a 413; one at the limit is read", arguments: [(1024, HTTPResponse.Status.ok), (1025, .contentTooLarge)])
    func bodyLimit(size: Int, status: HTTPResponse.Status) async throws {
        var configuration = LiveService.configuration
        configuration.maximumRouteBytes = 1024
        // Trailing spaces are valid JSON, so only the size decides.
        let body = Self.shortLine + String(repeating: " ", count: size - Self.shortLine.utf8.count)
        try await LiveService.run(configuration) { client in
            let response = try await client.execute(uri: "/v1/routes", method: .post, body: ByteBuffer(string: body))
            #expect(response.status == status)
            if status == .contentTooLarge {
                let error = try ErrorBody(response)
                #expect(error.parameter == "body")
                #expect(error.error.contains("1024 bytes"))
            }
        }
    }

    @Test("the default limit is 20 MiB")
    func defaultBodyLimit() async throws {
        var configuration = LiveService.configuration
        configuration.maximumRouteBytes = ServiceConfiguration().maximumRouteBytes
        let body = ByteBuffer(repeating: UInt8(ascii: " "), count: 20 << 20 + 1)
        try await LiveService.run(configuration) { client in
            let response = try await client.execute(uri: "/v1/routes", method: .post, body: body)
            #expect(response.status == .contentTooLarge)
            #expect(try ErrorBody(response).error.contains("\(20 << 20) bytes"))
        }
    }

    @Test("a route needing more images than allowed is refused before drawing")
    func tooManyImages() async throws {
        var configuration = LiveService.configuration
        configuration.maximumRouteImages = 7
        try await LiveService.run(configuration) { client in
            let response = try await client.execute(uri: "/v1/routes", method: .post, body: ByteBuffer(string: Self.shortLine))
            #expect(response.status == .badRequest)
            #expect(try ErrorBody(response).error.contains("8 distinct images"))
        }
    }
}
