import RouteModel

/// Reads the line geometries of a GeoJSON text (RFC 7946) as stages.
///
/// Each LineString is a stage, and so is each line of a MultiLineString. In a FeatureCollection
/// every line feature is a stage named by its `properties.name`. Each Point is a waypoint, with
/// `name`, `description` and simplestyle's `marker-symbol` and `marker-color` from its feature's
/// properties. Polygons and features without geometry are passed over.
struct GeoJSONReader {
    private var candidates: [StageCandidate] = []
    private var waypoints: [Waypoint] = []
    /// What was passed over, in order of appearance, for the message when no line is found.
    private var passedOver: [String] = []

    static func stages(from bytes: [UInt8], flatteningNumberArrays: Bool = true) throws(RouteError) -> [StageCandidate] {
        try read(bytes, flatteningNumberArrays: flatteningNumberArrays).stages
    }

    /// The stages and the waypoints of a document.
    static func read(_ bytes: [UInt8], flatteningNumberArrays: Bool = true) throws(RouteError) -> (stages: [StageCandidate], waypoints: [Waypoint]) {
        let root = try JSONParser.parse(bytes, flatteningNumberArrays: flatteningNumberArrays)
        var reader = GeoJSONReader()
        try reader.readRoot(root)
        guard !reader.candidates.isEmpty else {
            let found = reader.passedOver.isEmpty ? "" : "; found: \(summary(of: reader.passedOver))"
            throw RouteError("the JSON holds no line geometry (LineString or MultiLineString)\(found)")
        }
        return (reader.candidates, reader.waypoints)
    }

    private mutating func readRoot(_ root: JSONNode) throws(RouteError) {
        guard case .object = root else {
            passedOver.append("\(root.kindDescription) at the top level, not a GeoJSON object")
            return
        }
        switch root["type"] {
        case .string("FeatureCollection"):
            guard let features = root["features"]?.elements else {
                throw RouteError("the FeatureCollection has no \"features\" array")
            }
            for (index, feature) in features.enumerated() {
                try readFeature(feature, path: ["feature \(index + 1)"])
            }
        case .string("Feature"):
            try readFeature(root, path: [])
        default:
            try readGeometry(root, path: [], name: nil)
        }
    }

    private mutating func readFeature(_ feature: JSONNode, path: [String]) throws(RouteError) {
        guard case .string("Feature") = feature["type"] else {
            throw RouteError("\(location(path)): not a GeoJSON Feature (its \"type\" is not \"Feature\")")
        }
        var name: String?
        if case .string(let text)? = feature["properties"]?["name"] { name = text }
        switch feature["geometry"] {
        case nil, .null?: passedOver.append("feature without geometry")
        case let geometry?:
            if case .string("Point") = geometry["type"] {
                try readPoint(geometry, properties: feature["properties"], path: path)
            } else {
                try readGeometry(geometry, path: path, name: name)
            }
        }
    }

    private mutating func readGeometry(_ geometry: JSONNode, path: [String], name: String?) throws(RouteError) {
        switch geometry["type"] {
        case .string("LineString"):
            let coordinates = try readPositions(geometry["coordinates"], path: path)
            let label = path.isEmpty ? "the LineString" : location(path)
            candidates.append(StageCandidate(at: label, name: name, coordinates: coordinates))
        case .string("MultiLineString"):
            guard let lines = geometry["coordinates"]?.elements else {
                throw RouteError("\(location(path)): the MultiLineString's \"coordinates\" is not an array")
            }
            for (index, line) in lines.enumerated() {
                let linePath = path + ["line string \(index + 1)"]
                let coordinates = try readPositions(line, path: linePath)
                candidates.append(StageCandidate(at: location(linePath), name: name, coordinates: coordinates))
            }
        case .string("Point"):
            try readPoint(geometry, properties: nil, path: path)
        case .string("GeometryCollection"):
            guard let members = geometry["geometries"]?.elements else {
                throw RouteError("\(location(path)): the GeometryCollection has no \"geometries\" array")
            }
            for (index, member) in members.enumerated() {
                try readGeometry(member, path: path + ["geometry \(index + 1)"], name: name)
            }
        case .string(let other):
            passedOver.append(other)
        case let other?:
            passedOver.append("object whose \"type\" is \(other.kindDescription)")
        case nil:
            passedOver.append("object without a GeoJSON \"type\"")
        }
    }

    /// A Point as a waypoint, with what its feature's properties say of it; none past `Waypoint.maximumCount`.
    private mutating func readPoint(_ geometry: JSONNode, properties: JSONNode?, path: [String]) throws(RouteError) {
        // Not a line: named when no line is found, as before points were read.
        passedOver.append("Point")
        // One past the limit, so that the route can say some were left out.
        guard waypoints.count <= Waypoint.maximumCount else { return }
        let positions = try readPositions(JSONNode.array([geometry["coordinates"] ?? .null]), path: path + ["point"])
        guard let coordinate = positions.first else { return }
        func text(_ key: String) -> String? {
            guard case .string(let value)? = properties?[key], !value.isEmpty else { return nil }
            return String(value.prefix(Waypoint.maximumTextCharacters))
        }
        waypoints.append(
            Waypoint(coordinate: coordinate, name: text("name"), description: text("description"), symbol: text("marker-symbol"), colour: text("marker-color")))
    }

    /// GeoJSON positions are [longitude, latitude, elevation?]; the elevation is not needed.
    private func readPositions(_ value: JSONNode?, path: [String]) throws(RouteError) -> [Coordinate] {
        if case .numberArrays(let positions)? = value { return try readPositions(positions, path: path) }
        guard case .array(let positions)? = value else {
            let found = value?.kindDescription ?? "missing"
            throw RouteError("\(location(path)): \"coordinates\" is \(found), not an array of positions")
        }
        var coordinates: [Coordinate] = []
        coordinates.reserveCapacity(positions.count)
        for (index, position) in positions.enumerated() {
            // Formatted only for a message: joining the path for every position would dominate reading.
            let place = { location(path + ["coordinate \(index + 1)"]) }
            guard case .array(let numbers) = position else {
                throw RouteError("\(place()): a position must be an array of numbers, not \(position.kindDescription)")
            }
            guard numbers.count >= 2 else {
                throw RouteError("\(place()): a position needs 2 numbers (longitude, latitude), it has \(numbers.count)")
            }
            let longitude = try number(numbers[0], named: "longitude", at: place())
            let latitude = try number(numbers[1], named: "latitude", at: place())
            coordinates.append(try CoordinateCheck.coordinate(latitude: latitude, longitude: longitude, at: place()))
        }
        return coordinates
    }

    /// Positions read flat by the parser: the same checks and messages, without a value per number.
    private func readPositions(_ positions: JSONNode.NumberArrays, path: [String]) throws(RouteError) -> [Coordinate] {
        var coordinates: [Coordinate] = []
        coordinates.reserveCapacity(positions.count)
        var start = 0
        for (index, end) in positions.ends.enumerated() {
            let place = { location(path + ["coordinate \(index + 1)"]) }
            guard end - start >= 2 else {
                throw RouteError("\(place()): a position needs 2 numbers (longitude, latitude), it has \(end - start)")
            }
            let longitude = positions.numbers[start]
            let latitude = positions.numbers[start + 1]
            coordinates.append(try CoordinateCheck.coordinate(latitude: latitude, longitude: longitude, at: place()))
            start = end
        }
        return coordinates
    }

    private func number(
        _ value: JSONNode, named name: String, at place: @autoclosure () -> String
    ) throws(RouteError) -> Double {
        switch value {
        case .number(let number): return number
        case .string(let text): throw RouteError("\(place()): \(name) is a string (\"\(text)\"), not a number")
        default: throw RouteError("\(place()): \(name) is \(value.kindDescription), not a number")
        }
    }

    private func location(_ path: [String]) -> String {
        path.isEmpty ? "the top-level geometry" : path.joined(separator: ", ")
    }

    /// "2 × Point, Polygon" style list: counts of each thing passed over, in order of first appearance.
    private static func summary(of things: [String]) -> String {
        var order: [String] = []
        var counts: [String: Int] = [:]
        for thing in things {
            if counts[thing] == nil { order.append(thing) }
            counts[thing, default: 0] += 1
        }
        return order.map { thing in
            let count = counts[thing] ?? 0
            return count == 1 ? thing : "\(count) × \(thing)"
        }.joined(separator: ", ")
    }
}
