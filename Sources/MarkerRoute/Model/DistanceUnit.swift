/// The unit markers count in.
public enum DistanceUnit: String, Sendable, CaseIterable, Codable {
    case km, mi

    /// Metres in one unit (the international mile for `mi`).
    public var metres: Double {
        switch self {
        case .km: 1000
        case .mi: 1609.344
        }
    }
}
