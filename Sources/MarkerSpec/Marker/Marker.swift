/// What a marker says: its kind, its distance and the unit.
///
/// Two markers are equal when they show the same picture: kind, label number and unit (123 and
/// 123.2 both read `123km`), so rendering once, caching and naming all go by what is drawn.
public struct Marker: Sendable, Hashable {
    /// What a marker marks.
    public enum Kind: String, Sendable, CaseIterable, Codable {
        case start, distance, end
    }

    /// The unit markers count in.
    public enum Unit: String, Sendable, CaseIterable, Codable {
        case km, mi

        /// Metres in one unit (the international mile for `mi`).
        public var metres: Double {
            switch self {
            case .km: 1000
            case .mi: 1609.344
            }
        }
    }

    /// The longest distance a marker may show; longer is a mistake, not a route.
    public static let maximumDistance = 100_000.0

    public let kind: Kind
    /// The distance as given; the label shows it rounded (`number`).
    public let distance: Double
    public let unit: Unit
    /// The label's number, as the marker shows it.
    public let number: String

    /// A marker, checked: a finite distance from 0 to `maximumDistance`, and 0 for a start marker.
    public init(kind: Kind, distance: Double, unit: Unit = .km) throws(SpecError) {
        guard distance.isFinite else {
            throw SpecError(.distance, "must be a finite number, not \(distance)")
        }
        guard distance >= 0 else {
            throw SpecError(.distance, "must not be negative (got \(Label.plain(distance)))")
        }
        guard distance <= Self.maximumDistance else {
            throw SpecError(.distance, "\(Label.plain(distance)) is more than the largest supported, \(Int(Self.maximumDistance))")
        }
        guard kind != .start || distance == 0 else {
            throw SpecError(.distance, "must be 0 for a start marker (got \(Label.plain(distance)))")
        }
        self.kind = kind
        self.distance = distance
        self.unit = unit
        self.number = Label.number(for: distance)
    }

    public static func == (lhs: Marker, rhs: Marker) -> Bool {
        lhs.kind == rhs.kind && lhs.number == rhs.number && lhs.unit == rhs.unit
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(kind)
        hasher.combine(number)
        hasher.combine(unit)
    }

    /// The full label, e.g. `7.5km`.
    public var label: String { number + unit.rawValue }
}
