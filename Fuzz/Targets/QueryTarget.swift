import MarkerMap
import MarkerQuery
import MarkerSpec

/// libFuzzer target: the service's HTTP inputs short of the body. The bytes are split at the first
/// newline into a query string, read as `/v1/marker.png`, `/v1/pin.png`, `/v1/callout.png` and
/// `/v1/routes` read it, and a path
/// segment, read as `/v1/images/<name>`, `/v1/icons/<id>` and `/v1/sprites/<spelling>-<hash>` read it.
enum QueryTarget: FuzzTarget {
    static let name = "query"

    static func fuzz(_ bytes: [UInt8]) {
        let split = bytes.firstIndex(of: UInt8(ascii: "\n")) ?? bytes.endIndex
        let query = String(decoding: bytes[..<split], as: UTF8.self)
        let name = String(decoding: bytes[split...].dropFirst(), as: UTF8.self)

        if let parameters = try? QueryParameters(query, allowed: MarkerRequest.queryParameters),
            let request = try? MarkerRequest(query: parameters)
        {
            // What a query asks for has a readable name that reads back as the same request.
            let stem = request.baseName + "-0123456789"
            FuzzHarness.require(ImageName.parse(stem)?.request == request, "\(request.baseName) does not read back")
        }
        _ = try? RouteQuery(query)
        // Pins and callouts by query: what parses is within the limits a callout takes.
        _ = try? PinRequest(query: QueryParameters(query, allowed: PinRequest.queryParameters))
        if let parameters = try? QueryParameters(query, allowed: CalloutRequest.queryParameters, repeatable: ["line"]),
            let request = try? CalloutRequest(query: parameters)
        {
            FuzzHarness.require(request.callout.lines.count <= Callout.limits.lines, "\(request.callout.lines.count) lines")
            FuzzHarness.require(request.callout.title.count <= Callout.limits.titleCharacters, "a title of \(request.callout.title.count)")
        }
        if let decoded = QueryParameters.decode(Substring(name), plusIsSpace: false) {
            // Percent-decoding inverts percent-encoding: every byte escaped reads back as the same text.
            let hex = Array("0123456789ABCDEF".utf8)
            var escaped: [UInt8] = []
            for byte in decoded.utf8 { escaped += [UInt8(ascii: "%"), hex[Int(byte >> 4)], hex[Int(byte & 0x0F)]] }
            let again = QueryParameters.decode(Substring(decoding: escaped, as: UTF8.self))
            FuzzHarness.require(again == decoded, "\(decoded.debugDescription) does not survive escaping")
        }
        if let (marker, theme) = SpriteID.parse(Substring(name)) {
            // An id that parses is spelled as ids are made: kind, label, theme, hash.
            let described = "\(marker.kind.rawValue)-\(marker.label)-\(theme.name)-"
            FuzzHarness.require(
                name.hasPrefix(described) && name.utf8.count == described.utf8.count + ImageName.hashLength, "\(name) read as \(described)")
        }
        let stem = name.lastIndex(of: "-").map { name[..<$0] } ?? Substring(name)
        for spelled in [Substring(name), stem] {
            if let spelling = SheetSpelling(parsing: spelled, maximumPictures: 1024) {
                // A spelling that reads is the one spelling of its pictures, and holds no more than allowed.
                FuzzHarness.require(spelling.description == spelled, "\(spelled) read as \(spelling)")
                FuzzHarness.require((1...1024).contains(spelling.markers.count), "\(spelled) holds \(spelling.markers.count) pictures")
                FuzzHarness.require(Set(spelling.markers).count == spelling.markers.count, "\(spelled) holds a picture twice")
            }
        }
        if let parsed = ImageName.parse(name) {
            // A name that parses names one image, whose own name is the name read.
            FuzzHarness.require(name.hasPrefix(parsed.stem), "\(name) read as \(parsed.stem)")
        }
    }
}
