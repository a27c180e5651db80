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
    init?(pathExtension: String) {
        switch pathExtension.lowercased() {
        case "geojson", "json": self = .geoJSON
        case "gpx": self = .gpx
        default: return nil
        }
    }

    /// What follows the last dot of a path's last component ("" for none, or a name that starts with its only dot).
    static func pathExtension(of path: String) -> String {
        let file = path.split(separator: "/").last ?? ""
        guard let dot = file.lastIndex(of: "."), dot != file.startIndex else { return "" }
        return String(file[file.index(after: dot)...])
    }

    /// The format the first non-blank byte shows; a polyline cannot be told from text, so it must be named.
    static func detect(from firstByte: UInt8) throws(RouteError) -> RouteFormat {
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
