public import RouteModel

/// Reading routes from GeoJSON, GPX and encoded polylines.
extension Route {
    /// The largest input `load` reads: 64 MiB, over a million points of GeoJSON or GPX.
    public static let maximumInputBytes = 64 << 20

    /// Parses route bytes; format nil = detect from content (`{`/`[` GeoJSON, `<` GPX).
    ///
    /// Stages with fewer than 2 distinct points are dropped with a line in `warnings`.
    /// - Throws: `RouteError` naming the problem and where it is, one line.
    public static func parse(_ bytes: [UInt8], format: RouteFormat?) throws(RouteError) -> Route {
        guard let first = firstSignificantByte(of: bytes) else { throw RouteError("the input is empty") }
        let candidates: [StageCandidate]
        var waypoints: [Waypoint] = []
        // Not `format ?? detect(…)`: the autoclosure of ?? would widen the typed throw to any Error.
        let resolved = if let format { format } else { try RouteFormat.detect(from: first) }
        switch resolved {
        case .geoJSON: (candidates, waypoints) = try GeoJSONReader.read(bytes)
        case .gpx: (candidates, waypoints) = try GPXReader.read(bytes)
        case .polyline(let precision): candidates = try PolylineDecoder.stages(from: bytes, precision: precision)
        }
        var route = try Route(assembling: candidates)
        if waypoints.count > Waypoint.maximumCount {
            waypoints.removeLast(waypoints.count - Waypoint.maximumCount)
            route.warnings.append(
                "the file marks more than \(Waypoint.maximumCount) waypoints; the first \(Waypoint.maximumCount) are kept as pins")
        }
        route.waypoints = waypoints
        return route
    }

    /// Reads a route file, or standard input for "-", refusing more than `maximumInputBytes`.
    ///
    /// A file's size is checked before any of it is read. Without a `format`, the extension decides
    /// (.geojson, .json, .gpx), and failing that the content.
    /// - Throws: `RouteError` whose message starts with the path (or "standard input").
    public static func load(path: String, format: RouteFormat?) throws(RouteError) -> Route {
        let bytes = try InputFile.read(path: path, limit: maximumInputBytes)
        let format = format ?? RouteFormat(fileName: path)
        do {
            return try parse(bytes, format: format)
        } catch {
            throw RouteError("\(InputFile.displayName(path)): \(error.message)")
        }
    }

    /// How messages name the input at `path`: the path, or "standard input" for "-".
    public static func displayName(ofPath path: String) -> String {
        InputFile.displayName(path)
    }

    /// The first byte after a UTF-8 byte order mark and whitespace, if any.
    private static func firstSignificantByte(of bytes: [UInt8]) -> UInt8? {
        let start = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        return bytes[start...].first { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }
    }
}
