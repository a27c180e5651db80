public import MarkerRoute
public import MarkerSpec

/// The options of a `POST /v1/routes` query: `unit` (km), `locale` (a decimal point), `interval` (1), `countdown` (false),
/// `cumulative` (false), `zooms` (fit: placed on the map; table: the original app's zoom table), `themes` (day,night),
/// `sprites` (true: the route's sprite sheets are drawn and named) and `polyline` (5 or 6 says the
/// body is an encoded polyline; otherwise its first character tells GeoJSON from GPX).
///
/// There is no scale: a route's images come at every scale the service draws, each with its URL.
public struct RouteQuery: Sendable {
    public static let parameters = ["unit", "locale", "interval", "countdown", "cumulative", "zooms", "themes", "sprites", "polyline"]

    public var unit: Marker.Unit
    public var locale: LabelLocale
    public var interval: MarkerInterval
    public var countdown: Bool
    public var cumulative: Bool
    public var visibility: MarkerPlan.Visibility
    public var themes: [Theme]
    public var sprites: Bool
    public var format: RouteFormat?

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

    /// Reads a raw query string (percent-encoded, as in the URL).
    public init(_ query: String?) throws(QueryError) {
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
