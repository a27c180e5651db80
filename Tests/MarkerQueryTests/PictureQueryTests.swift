import MarkerQuery
import MarkerSpec
import Testing

/// The queries a route document hands out for its pins and callouts read back into the very
/// pictures they were written from, whatever their text holds.
@Suite("pin and callout queries")
struct PictureQueryTests {
    static let requests: [PictureRequest] = {
        var requests: [PictureRequest] = []
        do {
            requests.append(.pin(try PinRequest(pin: Pin(icon: .water), theme: .day, scale: 1)))
            requests.append(.pin(try PinRequest(pin: Pin(icon: .summit, colour: Colour(rgb: 0x8E, 0x24, 0xAA)), theme: .night, scale: 3)))
            requests.append(.pin(try PinRequest(pin: try Pin(text: "Ä&="), theme: .day, scale: .oneAndAHalf)))
            let badge = try Callout.Badge(text: "open 24/7", colour: Colour(rgb: 0x12, 0x34, 0x56))
            requests.append(
                .callout(
                    try CalloutRequest(
                        callout: try Callout(title: "Café & bar = 100% + more?", lines: ["a+b c", "#hash /slash", "مرحبا بالعالم"], badge: badge),
                        theme: .night, scale: 2)))
            requests.append(.callout(try CalloutRequest(callout: try Callout(title: "山小屋"), theme: .day, scale: 1)))
        } catch {
            Issue.record("\(error)")
        }
        return requests
    }()

    @Test("each request's query reads back into the same request", arguments: requests)
    func roundTrip(_ request: PictureRequest) throws {
        let query = try #require(request.query)
        #expect(query.unicodeScalars.allSatisfy { $0.isASCII && $0 != " " && $0 != "#" }, "\(query)")
        switch request {
        case .pin(let pin):
            #expect(try PinRequest(query: QueryParameters(query, allowed: PinRequest.queryParameters)) == pin)
        case .callout(let callout):
            let parameters = try QueryParameters(query, allowed: CalloutRequest.queryParameters, repeatable: ["line"])
            #expect(try CalloutRequest(query: parameters) == callout)
        }
    }

    @Test("an SVG icon or a photo has no query")
    func noQuery() throws {
        let svg = Array(#"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 15 15"><path d="M0 0h15v15z"/></svg>"#.utf8)
        #expect(PictureRequest.pin(try PinRequest(pin: try Pin(svgIcon: svg, name: "mine"), theme: .day, scale: 1)).query == nil)
        let photo: [UInt8] = [0xFF, 0xD8, 0xFF]
        #expect(PictureRequest.callout(try CalloutRequest(callout: try Callout(title: "x", photo: photo), theme: .day, scale: 1)).query == nil)
    }
}
