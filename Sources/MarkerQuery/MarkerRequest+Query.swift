import MarkerRender

extension MarkerRequest {
    /// What `/v1/marker.png` understands.
    public static let queryParameters = ["distance", "kind", "theme", "scale", "unit"]

    /// The image a `/v1/marker.png` query asks for: `distance` (required but for `kind=start`),
    /// `kind` (distance), `theme` (day), `scale` (2), `unit` (km).
    public init(query: QueryParameters) throws(QueryError) {
        let kind: Marker.Kind = try query.choice("kind", default: .distance)
        let unit: Marker.Unit = try query.choice("unit", default: .km)
        let theme = try query.theme()
        let scale = try query.scale()
        let distance = try query.decimal("distance") ?? (kind == .start ? 0 : .nan)
        let shown = query["distance"].map(QueryParameters.quoted) ?? ""
        guard !distance.isNaN else {
            throw QueryError.badParameter("distance", "required for kind=\(kind.rawValue) (only kind=start may leave it out)")
        }
        guard distance >= 0 else { throw QueryError.badParameter("distance", "must not be negative, not \(shown)") }
        guard distance <= Marker.maximumDistance else {
            throw QueryError.badParameter("distance", "must be at most \(Int(Marker.maximumDistance)), not \(shown)")
        }
        guard kind != .start || distance == 0 else {
            throw QueryError.badParameter("distance", "must be 0 or left out for kind=start, not \(shown)")
        }
        do {
            self = try MarkerRequest(marker: Marker(kind: kind, distance: distance, unit: unit), theme: theme, scale: scale)
        } catch {
            // Unreachable after the checks above, but a new rule in Marker must still be refused, not trap.
            throw QueryError.badParameter("distance", error.message)
        }
    }
}
