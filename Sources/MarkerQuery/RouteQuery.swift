public import RoutePlacement
public import RouteModel
import MarkerSpec

/// The options of a `POST /v1/routes` query, read into the `RouteOptions` that `markerpaint route`'s
/// flags are read into: `unit` (km), `locale` (a decimal point), `interval` (1), `countdown` (false),
/// `cumulative` (false), `zooms` (fit: placed on the map; table: the original app's zoom table),
/// `placement` (north-up; course-up: the layers show markers from `minzoomTurned`, for a map turned
/// to the direction of travel), `themes` (day,night), `sprites` (true: the route's sprite sheets are
/// drawn and named), `polyline` (5 or 6 says the body is an encoded polyline; otherwise its first
/// character tells GeoJSON from GPX), and `offline` (false: with true, the offline pack's corridor
/// and tile counts; `buffer` 2000 metres, `offlineZooms` 8-16 and `tileSize` 256 as `route --offline`
/// takes them).
///
/// There is no scale: a route's images come at every scale the service draws, each with its URL.
public struct RouteQuery: Sendable {
    public static let parameters = [
        "unit", "locale", "interval", "countdown", "cumulative", "zooms", "placement", "themes", "sprites", "polyline", "offline", "buffer",
        "offlineZooms", "tileSize",
    ]

    /// What the query asks of the route's markers.
    public var options: RouteOptions
    /// The body's format, when the query names one.
    public var format: RouteFormat?

    /// Reads a raw query string (percent-encoded, as in the URL); `offline` is taken as
    /// `offlineByDefault` when the query leaves it out.
    public init(_ query: String?, offlineByDefault: Bool = false) throws(QueryError) {
        let parameters = try QueryParameters(query, allowed: Self.parameters)
        options = RouteOptions()
        options.unit = try parameters.choice("unit", default: .km)
        options.locale = try parameters.locale()
        options.interval = try parameters.interval()
        options.countdown = try parameters.flag("countdown")
        options.cumulative = try parameters.flag("cumulative")
        options.visibility = try parameters.choice("zooms", default: .fit)
        options.placement = try parameters.choice("placement", default: .northUp)
        options.themes = try parameters.themes(default: [.day, .night])
        options.sprites = try parameters.flag("sprites", default: true)
        options.offline = try Self.offline(parameters, byDefault: offlineByDefault)
        format = try Self.format(parameters)
    }

    /// `offline=true` with `buffer`, `offlineZooms` and `tileSize`; those three only with it.
    static func offline(_ query: QueryParameters, byDefault: Bool) throws(QueryError) -> CorridorOptions? {
        guard try query.flag("offline", default: byDefault) else {
            if let name = ["buffer", "offlineZooms", "tileSize"].first(where: { query[$0] != nil }) {
                throw QueryError.badParameter(name, "is for offline=true")
            }
            return nil
        }
        var options = CorridorOptions()
        if let buffer = try query.decimal("buffer") {
            guard CorridorOptions.bufferRange.contains(buffer) else {
                throw QueryError.badParameter("buffer", "must be 1 to 100000 metres, not \(QueryParameters.quoted(query["buffer"] ?? ""))")
            }
            options.buffer = buffer
        }
        if let text = query["offlineZooms"] {
            guard let zooms = CorridorOptions.zooms(parsing: text) else {
                throw QueryError.badParameter("offlineZooms", "must be two zooms within 0-22 as first-last, such as 8-16, not \(QueryParameters.quoted(text))")
            }
            options.zooms = zooms
        }
        switch query["tileSize"] {
        case nil, "256": options.tileSize = 256
        case "512": options.tileSize = 512
        case let text?: throw QueryError.badParameter("tileSize", "must be 256 or 512, not \(QueryParameters.quoted(text))")
        }
        return options
    }

    static func format(_ query: QueryParameters) throws(QueryError) -> RouteFormat? {
        switch query["polyline"] {
        case nil: nil
        case "5": .polyline(precision: 5)
        case "6": .polyline(precision: 6)
        case let text?: throw QueryError.badParameter("polyline", "must be 5 or 6 (decimal places), not \(QueryParameters.quoted(text))")
        }
    }
}
