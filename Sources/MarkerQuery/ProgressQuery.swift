public import RouteModel
public import RideTracking
public import MarkerSpec

/// The options of a `POST /v1/progress` query: `unit` (km), `locale` (a decimal point),
/// `interval` (1), `themes` (day) and `ratio` (2) of the countdown markers' icon URLs, `threshold`
/// (30 m, the off-route threshold of fixes without accuracy or speed), `fixes` (gpx, csv or
/// ndjson; otherwise the part's file name or its first character tells) and `polyline` (5 or 6
/// says the route is an encoded polyline), as `markerpaint progress` takes them.
public struct ProgressQuery: Sendable {
    public static let parameters = ["unit", "locale", "interval", "themes", "ratio", "threshold", "fixes", "polyline"]

    public var unit: Marker.Unit
    public var locale: LabelLocale
    public var interval: MarkerInterval
    public var themes: [Theme]
    /// The pixel ratio of the icon URLs handed out (1, 2 or 3); the id serves every ratio.
    public var ratio: Int
    public var threshold: Double
    public var fixFormat: FixFormat?
    public var routeFormat: RouteFormat?

    /// How the fixes are followed, as these ask.
    public var followerOptions: RideFollower.Options {
        var options = RideFollower.Options()
        options.tracker.threshold = threshold
        options.unit = unit
        options.interval = interval
        options.mark = locale.decimalMark
        return options
    }

    /// Reads a raw query string (percent-encoded, as in the URL).
    public init(_ query: String?) throws(QueryError) {
        let parameters = try QueryParameters(query, allowed: Self.parameters)
        unit = try parameters.choice("unit", default: .km)
        locale = try parameters.locale()
        interval = try parameters.interval()
        themes = try parameters.themes(default: [.day])
        switch parameters["ratio"] {
        case nil, "2": ratio = 2
        case "1": ratio = 1
        case "3": ratio = 3
        case let text?: throw QueryError.badParameter("ratio", "must be 1, 2 or 3, not \(QueryParameters.quoted(text))")
        }
        let threshold = try parameters.decimal("threshold") ?? 30
        guard (20...100).contains(threshold) else {
            throw QueryError.badParameter("threshold", "must be 20 to 100 metres, not \(QueryParameters.quoted(parameters["threshold"] ?? ""))")
        }
        self.threshold = threshold
        if let name = parameters["fixes"] {
            guard let format = FixFormat(rawValue: name) else {
                throw QueryError.badParameter("fixes", "must be gpx, csv or ndjson, not \(QueryParameters.quoted(name))")
            }
            fixFormat = format
        }
        routeFormat = try RouteQuery.format(parameters)
    }
}
