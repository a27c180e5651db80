public import RoutePlacement
public import RouteModel
public import MarkerSpec

/// The options of a `POST /v1/routes` query: `unit` (km), `locale` (a decimal point), `interval` (1), `countdown` (false),
/// `cumulative` (false), `zooms` (fit: placed on the map; table: the original app's zoom table), `themes` (day,night),
/// `sprites` (true: the route's sprite sheets are drawn and named), `polyline` (5 or 6 says the
/// body is an encoded polyline; otherwise its first character tells GeoJSON from GPX), and
/// `offline` (false: with true, the offline pack's corridor and tile counts; `buffer` 2000 metres,
/// `offlineZooms` 8-16 and `tileSize` 256 as `route --offline` takes them).
///
/// There is no scale: a route's images come at every scale the service draws, each with its URL.
public struct RouteQuery: Sendable {
    public static let parameters = [
        "unit", "locale", "interval", "countdown", "cumulative", "zooms", "themes", "sprites", "polyline", "offline", "buffer", "offlineZooms",
        "tileSize",
    ]

    public var unit: Marker.Unit
    public var locale: LabelLocale
    public var interval: MarkerInterval
    public var countdown: Bool
    public var cumulative: Bool
    public var visibility: MarkerPlan.Visibility
    public var themes: [Theme]
    public var sprites: Bool
    public var format: RouteFormat?
    /// The offline pack asked for, if any.
    public var offline: CorridorOptions?

    /// The plan these options ask for, within `limits`.
    public func planOptions(limits: MarkerPlan.Limits) -> MarkerPlan.Options {
        var options = MarkerPlan.Options()
        options.unit = unit
        options.mark = locale.decimalMark
        options.interval = interval
        options.countdown = countdown
        options.cumulative = cumulative
        options.visibility = visibility
        options.limits = limits
        return options
    }

    /// Reads a raw query string (percent-encoded, as in the URL); `offline` is taken as
    /// `offlineByDefault` when the query leaves it out.
    public init(_ query: String?, offlineByDefault: Bool = false) throws(QueryError) {
        let parameters = try QueryParameters(query, allowed: Self.parameters)
        unit = try parameters.choice("unit", default: .km)
        locale = try parameters.locale()
        interval = try parameters.interval()
        countdown = try parameters.flag("countdown")
        cumulative = try parameters.flag("cumulative")
        visibility = try parameters.choice("zooms", default: .fit)
        themes = try parameters.themes(default: [.day, .night])
        sprites = try parameters.flag("sprites", default: true)
        format = try Self.format(parameters)
        offline = try Self.offline(parameters, byDefault: offlineByDefault)
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
