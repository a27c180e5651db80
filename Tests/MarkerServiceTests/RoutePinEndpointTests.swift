import Foundation
import Hummingbird
import MarkerPNG
import MarkerPixels
import MarkerQuery
import MarkerService
import MarkerSpec
import RoutePlacement
import TestSupport
import Testing

/// `POST /v1/routes` with a route whose file marks waypoints: each becomes a `kind: "pin"` feature
/// whose pin and callout ids the document's `images` resolve to URLs the service draws again.
@Suite("Pins in route documents")
struct RoutePinEndpointTests {
    @Test("each waypoint's pin and callout: ids that hash what their URLs serve at 1x, @2x and @3x, and the layers that show them")
    func pinsAndCallouts() async throws {
        let gpx = try sharedRouteBytes("cerknicko-jezero.gpx")
        try await LiveService.run { client in
            let response = try await client.execute(uri: "/v1/routes", method: .post, body: ByteBuffer(bytes: gpx))
            #expect(response.status == .ok)
            let document = try #require(try JSONSerialization.jsonObject(with: Data(response.body.readableBytesView)) as? [String: Any])
            let features = try #require(document["features"] as? [[String: Any]]).map { $0["properties"] as? [String: Any] ?? [:] }
            let pins = features.filter { $0["kind"] as? String == "pin" }
            #expect(pins.map { $0["pin"] as? Int } == Array(1...7).map { Optional($0) })
            #expect(pins.map { $0["title"] as? String } .contains("VANSHNG LK"))
            let images = try #require(document["images"] as? [String: [[String: Any]]])
            var checked = Set<String>()
            for pin in pins {
                #expect(pin["minzoom"] is Int && pin["minzoomTurned"] is Int && pin["zooms"] is [Int])
                for key in ["icon", "callout"] {
                    for (theme, id) in try #require(pin[key] as? [String: String]) where checked.insert(id).inserted {
                        let entries = try #require(images[id], "\(id)")
                        #expect(entries.map { $0["pixelRatio"] as? Int } == [1, 2, 3])
                        var sha256ByScale: [MarkerScale: String] = [:]
                        var picture: MapPicture? = nil
                        for entry in entries {
                            let url = try #require(entry["url"] as? String)
                            let (path, query) = try #require(url.split(separator: "?", maxSplits: 1).map(String.init).pair)
                            // Named by the picture's file (its hash), drawn by the query.
                            let file = String(path.dropFirst("/v1/pictures/".count))
                            #expect(path.hasPrefix("/v1/pictures/") && file.hasPrefix(key == "icon" ? "pin-" : "callout-") && !file.contains("/"), "\(path)")
                            let request: PictureRequest =
                                key == "icon"
                                ? .pin(try PinRequest(query: QueryParameters(query, allowed: PinRequest.queryParameters)))
                                : .callout(try CalloutRequest(query: QueryParameters(query, allowed: CalloutRequest.queryParameters, repeatable: ["line"])))
                            #expect(request.theme.name == theme)
                            picture = request.picture
                            let served = try await client.execute(uri: url, method: .get)
                            #expect(served.status == .ok)
                            #expect(served.headers[.cacheControl] == "public, max-age=31536000, immutable")
                            #expect(file.contains(String(SHA256Hex.of(served.bytes).prefix(10))))
                            let png = try PNGDecoder.decode(served.bytes)
                            #expect(png.width == entry["width"] as? Int && png.height == entry["height"] as? Int)
                            sha256ByScale[request.scale] = SHA256Hex.of(served.bytes)
                        }
                        let drawn = try #require(picture)
                        #expect(SpriteID(picture: drawn, theme: theme == "day" ? .day : .night, sha256ByScale: sha256ByScale).value == id)
                    }
                }
            }
            // Every waypoint names no built-in icon: one pin, and seven callouts, in each theme.
            #expect(checked.count == 2 + 7 * 2, "\(checked.sorted())")
            // A query that draws another picture than the file names is not answered.
            let url = try #require(
                images.values.flatMap { $0.compactMap { $0["url"] as? String } }.first { $0.hasPrefix("/v1/pictures/") && $0.contains("scale=1") && $0.contains("theme=day") })
            let other = url.replacingOccurrences(of: "theme=day", with: "theme=night").replacingOccurrences(of: "scale=1", with: "scale=2")
            #expect(other != url)
            #expect(try await client.execute(uri: other, method: .get).status == .notFound)
            let layers = try #require(document["layers"] as? [[String: Any]]).compactMap { $0["id"] as? String }
            #expect(
                layers == [
                    "markerpaint-markers-day", "markerpaint-markers-night", "markerpaint-pins-day", "markerpaint-pins-night",
                    "markerpaint-callouts-day", "markerpaint-callouts-night",
                ])
        }
    }

    @Test("a route posted again draws none of its pins and callouts: what each drew is recorded")
    func recorded() async throws {
        let gpx = try sharedRouteBytes("cerknicko-jezero.gpx")
        try await LiveService.run { client in
            func drawn() async throws -> Int {
                let text = try await client.execute(uri: "/metrics", method: .get).text
                let line = text.split(separator: "\n").first { $0.hasPrefix("markerpaint_pictures_drawn_total ") }
                return Int(line?.split(separator: " ").last.map(String.init) ?? "") ?? 0
            }
            let before = try await drawn()
            let first = try await client.execute(uri: "/v1/routes", method: .post, body: ByteBuffer(bytes: gpx))
            let afterFirst = try await drawn()
            let second = try await client.execute(uri: "/v1/routes", method: .post, body: ByteBuffer(bytes: gpx))
            #expect(first.status == .ok && second.status == .ok)
            // One pin and seven callouts, in two themes at three scales.
            #expect(afterFirst - before == (1 + 7) * 2 * 3)
            #expect(try await drawn() == afterFirst)
            #expect(first.bytes == second.bytes)
        }
    }

    @Test("with a signing key: each pin's and callout's URL is signed over its file and query; without the signature, or with the query changed, 403 and nothing drawn")
    func signed() async throws {
        let gpx = try sharedRouteBytes("korita-zbevnica.gpx")
        var signing = LiveService.configuration
        signing.signingKeyFile = try SigningTests.keyFile(SigningTests.hexKey)
        try await LiveService.run(signing) { client in
            let response = try await client.execute(uri: "/v1/routes", method: .post, body: ByteBuffer(bytes: gpx))
            #expect(response.status == .ok)
            let document = try #require(try JSONSerialization.jsonObject(with: Data(response.body.readableBytesView)) as? [String: Any])
            let images = try #require(document["images"] as? [String: [[String: Any]]])
            let urls = images.values.flatMap { $0.compactMap { $0["url"] as? String } }.filter { $0.hasPrefix("/v1/pictures/") }
            // Two waypoints: a pin and two callouts per theme, at three scales.
            #expect(urls.count == (1 + 2) * 2 * 3, "\(urls.count)")
            for url in urls {
                #expect(url.range(of: #"^/v1/pictures/[A-Za-z0-9_-]{22}/(pin|callout)-[^/?]+\.png\?"#, options: .regularExpression) != nil, "\(url)")
                #expect(try await client.execute(uri: url, method: .get).status == .ok)
            }
            // A pin and a callout drawn by query name their signed URL, as /v1/marker.png names its image.
            for query in ["/v1/pin.png?icon=water&theme=night&scale=2", "/v1/callout.png?title=Spring&line=Cold%20water&scale=1"] {
                let drawn = try await client.execute(uri: query, method: .get)
                #expect(drawn.status == .ok)
                let location = try #require(drawn.headers[.contentLocation], "\(query)")
                #expect(location.range(of: #"^/v1/pictures/[A-Za-z0-9_-]{22}/(pin-water-night@2x|callout-spring-day@1x)-[0-9a-f]{10}\.png\?"#, options: .regularExpression) != nil, "\(location)")
                let named = try await client.execute(uri: location, method: .get)
                #expect(named.status == .ok && named.bytes == drawn.bytes)
                #expect(named.headers[.cacheControl] == "public, max-age=31536000, immutable")
            }
            let url = try #require(urls.first { $0.contains("/pin-") })
            let unsigned = url.replacingOccurrences(of: #"/v1/pictures/[A-Za-z0-9_-]{22}/"#, with: "/v1/pictures/", options: .regularExpression)
            let recoloured = url.replacingOccurrences(of: "color=%23", with: "color=%23ff")
            for forged in [unsigned, recoloured] {
                #expect(forged != url)
                #expect(try await client.execute(uri: forged, method: .get).status == .forbidden, "\(forged)")
            }
        }
    }
}

extension Array {
    /// The two elements of a two-element array.
    fileprivate var pair: (Element, Element)? { count == 2 ? (self[0], self[1]) : nil }
}
