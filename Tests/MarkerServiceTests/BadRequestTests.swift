import Foundation
import Hummingbird
import HummingbirdTesting
import MarkerRender
import MarkerService
import MarkerSpec
import Testing

/// Every kind of bad input is a 4xx with a JSON error naming what is wrong, never a 500.
@Suite("Bad requests")
struct BadRequestTests {
    struct BadQuery: Sendable, CustomTestStringConvertible {
        let query: String
        let parameter: String
        var testDescription: String { query.isEmpty ? "(no query)" : query }
    }

    static let markerQueries: [BadQuery] = [
        // missing
        BadQuery(query: "", parameter: "distance"),
        BadQuery(query: "kind=end", parameter: "distance"),
        BadQuery(query: "distance=", parameter: "distance"),
        // not a number
        BadQuery(query: "distance=abc", parameter: "distance"),
        BadQuery(query: "distance=12abc", parameter: "distance"),
        BadQuery(query: "distance=1e3", parameter: "distance"),
        BadQuery(query: "distance=0x10", parameter: "distance"),
        BadQuery(query: "distance=1.2.3", parameter: "distance"),
        BadQuery(query: "distance=.5", parameter: "distance"),
        BadQuery(query: "distance=%20", parameter: "distance"),
        BadQuery(query: "distance=NaN", parameter: "distance"),
        BadQuery(query: "distance=nan", parameter: "distance"),
        BadQuery(query: "distance=inf", parameter: "distance"),
        BadQuery(query: "distance=-inf", parameter: "distance"),
        BadQuery(query: "distance=Infinity", parameter: "distance"),
        // out of range
        BadQuery(query: "distance=-1", parameter: "distance"),
        BadQuery(query: "distance=-0.5", parameter: "distance"),
        BadQuery(query: "distance=100000.1", parameter: "distance"),
        BadQuery(query: "distance=1000000000000000000000000000000", parameter: "distance"),
        BadQuery(query: "kind=start&distance=-5", parameter: "distance"),
        BadQuery(query: "kind=combined&distance=5", parameter: "kind"),
        // unknown choices
        BadQuery(query: "distance=1&kind=finish", parameter: "kind"),
        BadQuery(query: "distance=1&kind=", parameter: "kind"),
        BadQuery(query: "distance=1&theme=dusk", parameter: "theme"),
        BadQuery(query: "distance=1&theme=Night", parameter: "theme"),
        BadQuery(query: "distance=1&unit=m", parameter: "unit"),
        BadQuery(query: "distance=1.5&locale=ar", parameter: "locale"),
        BadQuery(query: "distance=1.5&locale=xx", parameter: "locale"),
        BadQuery(query: "distance=1.5&locale=de-u-nu-latn", parameter: "locale"),
        BadQuery(query: "distance=1.5&locale=", parameter: "locale"),
        BadQuery(query: "distance=1.5&locale=%0Ade", parameter: "locale"),
        BadQuery(query: "distance=10.5&interval=0.25", parameter: "interval"),
        BadQuery(query: "distance=10.5&interval=0", parameter: "interval"),
        // scale
        BadQuery(query: "distance=1&scale=0", parameter: "scale"),
        BadQuery(query: "distance=1&scale=5", parameter: "scale"),
        BadQuery(query: "distance=1&scale=-2", parameter: "scale"),
        BadQuery(query: "distance=1&scale=2.5", parameter: "scale"),
        BadQuery(query: "distance=1&scale=two", parameter: "scale"),
        BadQuery(query: "distance=1&scale=02", parameter: "scale"),
        BadQuery(query: "distance=1&scale=1.50", parameter: "scale"),
        // duplicated, unknown, undecodable
        BadQuery(query: "distance=1&distance=2", parameter: "distance"),
        BadQuery(query: "distance=1&theme=day&theme=day", parameter: "theme"),
        BadQuery(query: "distance=1&colour=red", parameter: "colour"),
        BadQuery(query: "distance=%zz", parameter: "distance"),
    ]

    @Test("a bad /v1/marker.png parameter is a 400 naming it", arguments: markerQueries)
    func badMarkerQuery(_ bad: BadQuery) async throws {
        try await LiveService.run { client in
            let response = try await client.execute(uri: "/v1/marker.png?\(bad.query)", method: .get)
            #expect(response.status == .badRequest)
            #expect(response.headers[.contentType] == "application/json; charset=utf-8")
            let body = try ErrorBody(response)
            #expect(body.parameter == bad.parameter)
            #expect(body.error.contains("\"\(bad.parameter)\""), "\(body.error)")
        }
    }

    static let routeQueries: [BadQuery] = [
        BadQuery(query: "unit=m", parameter: "unit"),
        BadQuery(query: "cumulative=maybe", parameter: "cumulative"),
        BadQuery(query: "themes=dusk", parameter: "themes"),
        BadQuery(query: "themes=day,day", parameter: "themes"),
        BadQuery(query: "themes=", parameter: "themes"),
        BadQuery(query: "scale=9", parameter: "scale"),
        BadQuery(query: "sprites=maybe", parameter: "sprites"),
        BadQuery(query: "polyline=7", parameter: "polyline"),
        BadQuery(query: "unit=km&unit=mi", parameter: "unit"),
        BadQuery(query: "locale=fa", parameter: "locale"),
        BadQuery(query: "interval=1e-1", parameter: "interval"),
        BadQuery(query: "interval=5000", parameter: "interval"),
        BadQuery(query: "format=gpx", parameter: "format"),
        BadQuery(query: "zooms=app", parameter: "zooms"),
        BadQuery(query: "zooms=fit&zooms=table", parameter: "zooms"),
    ]

    @Test("a bad /v1/routes parameter is a 400 naming it", arguments: routeQueries)
    func badRouteQuery(_ bad: BadQuery) async throws {
        try await LiveService.run { client in
            let response = try await client.execute(
                uri: "/v1/routes?\(bad.query)", method: .post, body: ByteBuffer(string: RouteEndpointTests.shortLine))
            #expect(response.status == .badRequest)
            let body = try ErrorBody(response)
            #expect(body.parameter == bad.parameter)
            #expect(body.error.contains("\"\(bad.parameter)\""), "\(body.error)")
        }
    }

    struct BadRoute: Sendable, CustomTestStringConvertible {
        let body: String
        var query = ""
        /// Part of the route reader's message.
        let says: String
        var testDescription: String { "\(body.prefix(40)) \(query)" }
    }

    static let badRoutes: [BadRoute] = [
        BadRoute(body: "", says: "empty"),
        BadRoute(body: "hello", says: "cannot tell the format"),
        BadRoute(body: "{\"type\": \"LineString\", \"coordinates\": [[0, 0]]", says: "unexpected end of input"),
        BadRoute(body: "{\"type\": \"LineString\", \"coordinates\": [[200, 0], [201, 0]]}", says: "longitude 200.0 is out of range"),
        BadRoute(body: "<gpx><trk><trkseg><trkpt lat=\"x\" lon=\"0\"/></trkseg></trk></gpx>", says: "latitude \"x\" is not a number"),
        BadRoute(body: "_p~iF~ps|U_ulLnnqC", says: "polyline"),
        BadRoute(body: "!!!!", query: "polyline=5", says: "invalid character '!'"),
    ]

    @Test("a route that cannot be read is a 400 with the reader's message", arguments: badRoutes)
    func badRoute(_ bad: BadRoute) async throws {
        try await LiveService.run { client in
            let response = try await client.execute(uri: "/v1/routes?\(bad.query)", method: .post, body: ByteBuffer(string: bad.body))
            #expect(response.status == .badRequest)
            let error = try ErrorBody(response)
            #expect(error.parameter == "body")
            #expect(error.error.hasPrefix("route: "))
            #expect(error.error.contains(bad.says), "\(error.error)")
        }
    }

    @Test(
        "unknown paths are a JSON 404",
        arguments: [
            ("/", "GET"), ("/v1", "GET"), ("/v1/marker.jpg", "GET"), ("/v1/images", "GET"), ("/v1/images/", "GET"),
            ("/healthz/", "DELETE"),
        ])
    func unknownRoute(path: String, method: String) async throws {
        try await LiveService.run { client in
            let response = try await client.execute(uri: path, method: .init(method)!)
            #expect(response.status == .notFound)
            #expect(try ErrorBody(response).error.contains("no such endpoint"))
        }
    }

    @Test("a hashed image URL takes no query")
    func namedImageWithQuery() async throws {
        let expected = try LiveService.reference(.distance, 5)
        try await LiveService.run { client in
            let response = try await client.execute(uri: "/v1/images/\(expected.image.fileName)?v=2", method: .get)
            #expect(response.status == .badRequest)
        }
    }
}
