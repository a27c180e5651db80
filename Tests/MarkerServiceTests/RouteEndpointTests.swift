import Foundation
import Hummingbird
import HummingbirdTesting
import MarkerMap
import MarkerRender
import RouteModel
import RouteFormats
import RoutePlacement
import MarkerService
import MarkerSpec
import TestSupport
import Testing

/// `POST /v1/routes`: a route in; markers.geojson out, with every image's URL, size and anchor
/// at every scale, the sprite sheets, the layers and the stages.
@Suite("Route marker documents")
struct RouteEndpointTests {
    /// About 2.5 km due north: a start, markers at 1 and 2 km, and an end.
    static let shortLine = #"{"type": "LineString", "coordinates": [[14.0, 46.0], [14.0, 46.01], [14.0, 46.0225]]}"#
    /// (46, 14) → (46.02, 14) → (46.02, 14.03), about 4.5 km, as a precision-5 polyline.
    static let shortPolyline = "_kwwG_kmtA_|B??ozD"

    /// The parts of the document the tests look at.
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
                let sprite: [String: String]?
            }
            let geometry: Geometry
            let properties: Properties
        }
        struct Image: Decodable {
            let pixelRatio: Int
            let url: String
            let width: Int
            let height: Int
            let anchor: [Int]
        }
        struct Sheet: Decodable {
            let id: String
            let url: String
        }
        struct Stage: Decodable {
            let stage: Int
            let name: String?
            let length: Double
            let lengthMetres: Double
        }
        struct Layer: Decodable {
            let id: String
        }
        let type: String
        let features: [Feature]
        let images: [String: [Image]]
        let sprite: [Sheet]
        let layers: [Layer]
        let stages: [Stage]
        let unit: String
        let locale: String?
        let interval: Double?
        let countdown: Bool?

        init(_ response: LiveResponse) throws {
            self = try JSONDecoder().decode(Document.self, from: Data(response.body.readableBytesView))
        }
    }

    /// Checks every icon: its id names the feature's marker and hashes the reference pictures at 1x,
    /// @2x and @3x, and each of its URLs serves that picture, with the size and anchor the document gives.
    static func checkIcons(of document: Document, origin: String, themes: [String], client: LiveClient) async throws {
        var checked = Set<String>()
        for feature in document.features {
            #expect(Set(feature.properties.icon.keys) == Set(themes))
            for (themeName, id) in feature.properties.icon where checked.insert(id).inserted {
                let (marker, theme) = try #require(SpriteID.parse(id[...]))
                #expect(marker.kind.rawValue == feature.properties.kind)
                #expect(marker.label == feature.properties.label)
                #expect(theme.name == themeName)
                let references = try SpriteID.everyScale.map { scale in
                    try MarkerRenderer().render(MarkerRequest(marker: marker, theme: theme, scale: scale))
                }
                let sha256ByScale = Dictionary(uniqueKeysWithValues: references.map { ($0.image.request.scale, $0.image.sha256) })
                #expect(SpriteID(marker: marker, theme: theme, sha256ByScale: sha256ByScale).value == id)
                let images = try #require(document.images[id])
                #expect(images.map(\.pixelRatio) == [1, 2, 3])
                for (image, reference) in zip(images, references) {
                    let suffix = image.pixelRatio == 1 ? "" : "@\(image.pixelRatio)x"
                    #expect(image.url == "\(origin)/v1/icons/\(id)\(suffix).png")
                    #expect(image.width == reference.image.width && image.height == reference.image.height)
                    #expect(image.anchor.map(Double.init) == [reference.image.anchor.x, reference.image.anchor.y])
                    let response = try await client.execute(uri: String(image.url.dropFirst(origin.count)), method: .get)
                    #expect(response.status == .ok)
                    #expect(response.headers[.cacheControl] == "public, max-age=31536000, immutable")
                    #expect(response.bytes == reference.png)
                }
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
            try await Self.checkIcons(of: document, origin: "", themes: ["day", "night"], client: client)
            #expect(document.layers.map(\.id) == ["markerpaint-markers-day", "markerpaint-markers-night"])
            #expect(document.stages.count == 1 && document.stages[0].name == nil)
            #expect(abs((document.stages.first?.lengthMetres ?? 0) - 2502) < 5)
        }
    }

    @Test("a route's markers are placed on the map as markerpaint route places them, and zooms=table gives the app's table")
    func placement() async throws {
        let gpx = try sharedRouteBytes("korita-zbevnica.gpx")
        let route = try Route.parse(gpx, format: nil)
        var table = MarkerPlan.Options()
        table.visibility = .table
        let expected = [
            "fit": try MarkerPlan(route: route, options: MarkerPlan.Options(), renderer: MarkerRenderer()),
            "table": try MarkerPlan(route: route, options: table, renderer: MarkerRenderer()),
        ]
        try await LiveService.run { client in
            for (zooms, plan) in expected {
                let query = zooms == "fit" ? "" : "?zooms=table"
                let response = try await client.execute(uri: "/v1/routes" + query, method: .post, body: ByteBuffer(bytes: gpx))
                #expect(response.status == .ok)
                let document = try #require(try JSONSerialization.jsonObject(with: Data(response.body.readableBytesView)) as? [String: Any])
                // The route's two waypoints follow its markers as pins.
                let all = try #require(document["features"] as? [[String: Any]]).map { $0["properties"] as? [String: Any] ?? [:] }
                #expect(all.filter { $0["kind"] as? String == "pin" }.map { $0["pin"] as? Int } == [1, 2])
                let features = all.filter { $0["kind"] as? String != "pin" }
                #expect(features.map { $0["label"] as? String } == plan.markers.map(\.marker.label))
                #expect(features.map { $0["minzoom"] as? Int } == plan.markers.map(\.minzoom), "zooms=\(zooms)")
                #expect(features.map { $0["zooms"] as? [Int] } == plan.markers.map(\.zooms), "zooms=\(zooms)")
                #expect(document["zooms"] as? String == (zooms == "fit" ? nil : "table"))
                for layer in try #require(document["layers"] as? [[String: Any]]) where (layer["id"] as? String ?? "").hasPrefix("markerpaint-markers-") {
                    let filter = String(decoding: try JSONSerialization.data(withJSONObject: try #require(layer["filter"])), as: UTF8.self)
                    if zooms == "fit" {
                        #expect(filter == #"["all",["!=",["get","kind"],"pin"],[">=",["zoom"],["get","minzoom"]]]"#)
                    } else {
                        #expect(filter.contains(#""step""#), "\(filter)")
                    }
                }
            }
        }
    }

    @Test("a real GPX route gives consecutive markers from start to end")
    func gpx() async throws {
        let gpx = try sharedRouteBytes("route.gpx")
        try await LiveService.run { client in
            let response = try await client.execute(uri: "/v1/routes?themes=night", method: .post, body: ByteBuffer(bytes: gpx))
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
            try await Self.checkIcons(of: document, origin: "", themes: ["night"], client: client)
        }
    }

    @Test("a polyline needs its precision; miles and stage-by-stage counting come from the query")
    func polyline() async throws {
        try await LiveService.run { client in
            let response = try await client.execute(
                uri: "/v1/routes?polyline=5&unit=mi&themes=day",
                method: .post, body: ByteBuffer(string: Self.shortPolyline))
            #expect(response.status == .ok)
            let document = try Document(response)
            // About 4.5 km is 2.8 miles.
            #expect(document.features.map(\.properties.label) == ["0mi", "1mi", "2mi", "2.8mi"])
            #expect(document.features.allSatisfy { $0.properties.unit == "mi" })
            try await Self.checkIcons(of: document, origin: "", themes: ["day"], client: client)
            #expect(document.unit == "mi")
            #expect(document.locale == nil)
            #expect(abs((document.stages.first?.length ?? 0) - 2.8) < 0.05)
        }
    }

    /// A label option of `POST /v1/routes`, what the short polyline's markers then read, and what the document says of it.
    struct LabelOption: Sendable, CustomTestStringConvertible {
        let query: String
        let kinds: [String]
        let labels: [String]
        let documented: @Sendable (Document) -> Bool
        var testDescription: String { query }
    }

    static let labelOptions: [LabelOption] = [
        LabelOption(
            query: "unit=mi&locale=de", kinds: ["start", "distance", "distance", "end"], labels: ["0mi", "1mi", "2mi", "2,8mi"],
            documented: { $0.locale == "de" && $0.interval == nil && $0.countdown == nil }),
        // About 4.5 km: the marker at 4.5 would read what the end reads, and is left out.
        LabelOption(
            query: "interval=0.5", kinds: ["start"] + Array(repeating: "distance", count: 8) + ["end"],
            labels: ["0km", "0.5km", "1km", "1.5km", "2km", "2.5km", "3km", "3.5km", "4km", "4.5km"],
            documented: { $0.interval == 0.5 && $0.locale == nil }),
        LabelOption(
            query: "countdown=true", kinds: ["start", "countdown", "countdown", "countdown", "countdown", "end"],
            labels: ["0km", "4km", "3km", "2km", "1km", "4.5km"], documented: { $0.countdown == true && $0.interval == nil }),
    ]

    @Test("locale, interval and countdown change what the markers read, and the document says so", arguments: labelOptions)
    func labelOption(_ option: LabelOption) async throws {
        try await LiveService.run { client in
            let response = try await client.execute(
                uri: "/v1/routes?polyline=5&themes=night&\(option.query)", method: .post, body: ByteBuffer(string: Self.shortPolyline))
            #expect(response.status == .ok)
            let document = try Document(response)
            #expect(document.features.map(\.properties.kind) == option.kinds)
            #expect(document.features.map(\.properties.label) == option.labels)
            #expect(option.documented(document))
            try await Self.checkIcons(of: document, origin: "", themes: ["night"], client: client)
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
            let urls = document.images.values.flatMap { $0.map(\.url) } + document.sprite.map(\.url)
            #expect(!urls.isEmpty)
            #expect(urls.allSatisfy { $0.hasPrefix("https://markers.example.com/v1/") })
            try await Self.checkIcons(of: document, origin: "https://markers.example.com", themes: ["day"], client: client)
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
        configuration.maximumRouteImages = 23
        try await LiveService.run(configuration) { client in
            // 4 pictures in 2 themes at 3 scales.
            let response = try await client.execute(uri: "/v1/routes", method: .post, body: ByteBuffer(string: Self.shortLine))
            #expect(response.status == .badRequest)
            #expect(try ErrorBody(response).error.contains("24 distinct images"))
            let fewer = try await client.execute(uri: "/v1/routes?themes=day", method: .post, body: ByteBuffer(string: Self.shortLine))
            #expect(fewer.status == .ok)
        }
    }
}
