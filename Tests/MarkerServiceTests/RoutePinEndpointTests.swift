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
                            #expect(path == (key == "icon" ? "/v1/pin.png" : "/v1/callout.png"))
                            let request: PictureRequest =
                                key == "icon"
                                ? .pin(try PinRequest(query: QueryParameters(query, allowed: PinRequest.queryParameters)))
                                : .callout(try CalloutRequest(query: QueryParameters(query, allowed: CalloutRequest.queryParameters, repeatable: ["line"])))
                            #expect(request.theme.name == theme)
                            picture = request.picture
                            let served = try await client.execute(uri: url, method: .get)
                            #expect(served.status == .ok)
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
            let layers = try #require(document["layers"] as? [[String: Any]]).compactMap { $0["id"] as? String }
            #expect(
                layers == [
                    "markerpaint-markers-day", "markerpaint-markers-night", "markerpaint-pins-day", "markerpaint-pins-night",
                    "markerpaint-callouts-day", "markerpaint-callouts-night",
                ])
        }
    }
}

extension Array {
    /// The two elements of a two-element array.
    fileprivate var pair: (Element, Element)? { count == 2 ? (self[0], self[1]) : nil }
}
