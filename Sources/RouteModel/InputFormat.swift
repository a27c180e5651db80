/// How a route's bytes are encoded.
public enum RouteFormat: Sendable, Equatable {
    /// RFC 7946 GeoJSON: positions are [longitude, latitude].
    case geoJSON
    /// GPX 1.0 or 1.1 tracks and routes.
    case gpx
    /// Google's encoded polyline, with 5 (Google) or 6 (OSRM, Valhalla) decimal places.
    case polyline(precision: Int)

    /// The format a file name's (or path's) extension stands for: .geojson and .json, or .gpx.
    public init?(fileName: String) {
        self.init(pathExtension: Self.pathExtension(of: fileName))
    }

    /// The format an extension stands for: geojson and json, or gpx.
    package init?(pathExtension: String) {
        switch pathExtension.lowercased() {
        case "geojson", "json": self = .geoJSON
        case "gpx": self = .gpx
        default: return nil
        }
    }

    /// What follows the last dot of a path's last component ("" for none, or a name that starts with its only dot).
    package static func pathExtension(of path: String) -> String {
        let file = path.split(separator: "/").last ?? ""
        guard let dot = file.lastIndex(of: "."), dot != file.startIndex else { return "" }
        return String(file[file.index(after: dot)...])
    }

    /// The format the first non-blank byte shows; a polyline cannot be told from text, so it must be named.
    package static func detect(from firstByte: UInt8) throws(RouteError) -> RouteFormat {
        switch firstByte {
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            return .geoJSON
        case UInt8(ascii: "<"):
            return .gpx
        default:
            throw RouteError(
                "cannot tell the format: the input starts with neither '{' or '[' (GeoJSON) nor '<' (GPX); "
                    + "if it is an encoded polyline, give its precision (5 or 6)")
        }
    }
}

/// The formats fixes are read in.
public enum FixFormat: String, Sendable, CaseIterable {
    /// A GPX track (or route): each point with its `<time>`, and `<speed>` where a device wrote one.
    case gpx
    /// Comma-separated, with a header naming `lat` and `lon` and optionally `time`, `accuracy`, `speed`.
    case csv
    /// One JSON object a line: `{"lat": …, "lon": …, "time": …, "accuracy": …, "speed": …}`.
    case ndjson

    /// The format a file name's (or path's) extension names, if any.
    public init?(fileName: String) {
        self.init(pathExtension: RouteFormat.pathExtension(of: fileName))
    }

    /// The format an extension names, if any.
    public init?(pathExtension: String) {
        switch pathExtension.lowercased() {
        case "gpx": self = .gpx
        case "csv", "txt": self = .csv
        case "ndjson", "jsonl", "json": self = .ndjson
        default: return nil
        }
    }
}
