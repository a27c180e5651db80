public import MarkerSpec
public import RouteModel

/// What a user asks of a route's markers, the same whether read from `markerpaint route`'s flags or
/// from a `POST /v1/routes` query: one declaration, so neither edge can offer what the other lacks.
public struct RouteOptions: Sendable, Equatable {
    /// The themes drawn, each with its own layer.
    public var themes: [Theme] = [.day, .night]
    /// What the markers count in.
    public var unit: Marker.Unit = .km
    /// The locale labels read in: its decimal mark writes tenths (`7,5km` for `de`).
    public var locale = LabelLocale.standard
    /// The spacing of the distance markers, in the unit.
    public var interval = MarkerInterval.one
    /// Whether the markers between count down to each stage's end (`−45km`).
    public var countdown = false
    /// Whether counting goes on across stages instead of restarting at each.
    public var cumulative = false
    /// How the zooms each marker shows at are decided: placed on the map (none over another), or
    /// the original app's table.
    public var visibility = MarkerPlan.Visibility.fit
    /// Whether the style shows markers for a map that keeps north up or turns (`minzoomTurned`).
    public var placement = ScreenPlacement.Rotation.northUp
    /// Whether the route's sprite sheets are drawn.
    public var sprites = true
    /// The offline pack asked for beside the markers, if any.
    public var offline: CorridorOptions? = nil

    public init() {}

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
}
