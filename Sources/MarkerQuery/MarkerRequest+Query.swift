public import MarkerSpec

extension MarkerRequest {
    /// What `/v1/marker.png` understands.
    public static let queryParameters = ["distance", "kind", "theme", "scale", "unit", "locale", "interval"]

    /// The image a `/v1/marker.png` query asks for: `distance` (required but for `kind=start`),
    /// `kind` (distance), `theme` (day), `scale` (2), `unit` (km), `locale` (a decimal point; `de` reads `7,5km`), `interval` (1; with a tenth, `10.5` reads `10.5km`).
    ///
    /// The marker's own rules decide what is valid; a broken rule names its field, which is the
    /// parameter of the same name.
    public init(query: QueryParameters) throws(QueryError) {
        let kind: Marker.Kind = try query.choice("kind", default: .distance)
        guard kind != .combined else {
            throw QueryError.badParameter("kind", "combined markers are asked for by name (/v1/images/<name>.png), which spells their parts")
        }
        let unit: Marker.Unit = try query.choice("unit", default: .km)
        let locale = try query.locale()
        let interval = try query.interval()
        let theme = try query.theme()
        let scale = try query.scale()
        guard let distance = try query.decimal("distance") ?? (kind == .start ? 0 : nil) else {
            throw QueryError.badParameter("distance", "required for kind=\(kind.rawValue) (only kind=start may leave it out)")
        }
        do {
            self = try MarkerRequest(
                marker: Marker(kind: kind, distance: distance, unit: unit, mark: locale.decimalMark, precision: interval.precision), theme: theme,
                scale: scale)
        } catch {
            throw QueryError(error)
        }
    }
}
