/// What a marker says: its kind, its distance and the unit.
///
/// Two markers are equal when they show the same picture: kind, label numbers and unit (123 and
/// 123.2 both read `123km`; 12 reads `12km` whatever the decimal mark), so rendering once, caching
/// and naming all go by what is drawn. The decimal mark lives in the label numbers (`7,5`).
public struct Marker: Sendable, Hashable {
    /// What a marker marks.
    public enum Kind: String, Sendable, CaseIterable, Codable {
        case start, distance, end
        /// The distance left to the stage's end, read with a minus sign (`−45km`: 45 km to go).
        case countdown
        /// Readings at one place, as one picture: a loop's start and end, one stage ending where the next
        /// starts, the outbound `3km` and the return `17km` of an out-and-back.
        case combined
    }

    /// The unit markers count in: kilometres, miles, or nautical miles (sailing and paddling routes).
    public enum Unit: String, Sendable, CaseIterable, Codable {
        case km, mi, nmi

        /// Metres in one unit (the international mile for `mi`, the international nautical mile for `nmi`).
        public var metres: Double {
            switch self {
            case .km: 1000
            case .mi: 1609.344
            case .nmi: 1852
            }
        }
    }

    /// One reading a marker shows: for a combined marker, one of the markers it joins.
    public struct Part: Sendable, Hashable {
        /// `start`, `distance`, `end` or `countdown`, never `combined`.
        public let kind: Kind
        /// The distance as given; the label shows it rounded (`number`).
        public let distance: Double
        /// The number as the marker shows it.
        public let number: String

        /// A reading, checked: a finite distance from 0 to `maximumDistance`, rounded as `precision`
        /// says, its tenths after `mark`.
        public init(kind: Kind, distance: Double, mark: Label.DecimalMark = .point, precision: Label.Precision = .standard) throws(SpecError) {
            guard distance.isFinite else {
                throw SpecError(.distance, "must be a finite number, not \(distance)")
            }
            guard distance >= 0 else {
                throw SpecError(.distance, "must not be negative (got \(Label.plain(distance)))")
            }
            guard distance <= Marker.maximumDistance else {
                throw SpecError(.distance, "\(Label.plain(distance)) is more than the largest supported, \(Int(Marker.maximumDistance))")
            }
            self.kind = kind
            self.distance = distance
            self.number = Label.number(for: distance, mark: mark, precision: precision)
        }

        /// A reading as names spell it (`7.5`, `7,5`, `24`, and `10.5` from a route with a fractional
        /// interval): ASCII digits and a decimal mark, exactly as the label shows it, so one reading
        /// has one spelling (`07.50` does not read). Nil otherwise.
        public init?(kind: Kind, spelled number: Substring) {
            // A canonical number is at most 6 characters (100000); longer is refused before parsing.
            guard !number.isEmpty, number.utf8.count <= 12,
                number.utf8.allSatisfy({ (0x30...0x39).contains($0) || $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: ",") })
            else { return nil }
            let mark: Label.DecimalMark = number.contains(",") ? .comma : .point
            // A tenth past 10 is what only `.tenths` writes.
            let precision: Label.Precision = mark == .comma || number.contains(".") ? .tenths : .standard
            guard let distance = Double(String(number).replacing(",", with: ".")),
                let part = try? Part(kind: kind, distance: distance, mark: mark, precision: precision), part.number == number
            else { return nil }
            self = part
        }

        /// The number's value, as read (`10.5` for `10,5`).
        public var value: Double { Double(number.replacing(",", with: ".")) ?? distance }

        /// The mark between the number's whole part and its tenth, or nil for a whole number (which reads the same in every locale).
        public var decimalMark: Label.DecimalMark? {
            number.contains(",") ? .comma : number.contains(".") ? .point : nil
        }

        public static func == (lhs: Part, rhs: Part) -> Bool { lhs.kind == rhs.kind && lhs.number == rhs.number }

        public func hash(into hasher: inout Hasher) {
            hasher.combine(kind)
            hasher.combine(number)
        }
    }

    /// The longest distance a marker may show; longer is a mistake, not a route.
    public static let maximumDistance = 100_000.0
    /// The most readings one combined marker joins, which bounds its width.
    public static let maximumParts = 6

    public let kind: Kind
    public let unit: Unit
    /// What the marker reads, in order: one part, or for a combined marker 2 to `maximumParts`.
    public let parts: [Part]

    /// A start, distance or end marker, checked: a finite distance from 0 to `maximumDistance`.
    ///
    /// A start reads 0 when counting restarts at each stage, and the distance so far when counting on.
    public init(
        kind: Kind, distance: Double, unit: Unit = .km, mark: Label.DecimalMark = .point, precision: Label.Precision = .standard
    ) throws(SpecError) {
        guard kind != .combined else {
            throw SpecError(.kind, "combined is made from the starts and ends it joins, not from one distance")
        }
        self.kind = kind
        self.unit = unit
        self.parts = [try Part(kind: kind, distance: distance, mark: mark, precision: precision)]
    }

    /// A start, distance or end marker that reads `part`, as a name spells it.
    public init(_ part: Part, unit: Unit = .km) throws(SpecError) {
        guard part.kind != .combined else {
            throw SpecError(.kind, "combined is made from the starts and ends it joins, not from one distance")
        }
        self.kind = part.kind
        self.unit = unit
        self.parts = [part]
    }

    /// A combined marker: the readings (starts, ends, distance and countdown markers) that meet at
    /// one place, in route order.
    public init(combining parts: [Part], unit: Unit = .km) throws(SpecError) {
        guard (2...Self.maximumParts).contains(parts.count) else {
            throw SpecError(.kind, "combined joins 2 to \(Self.maximumParts) readings (got \(parts.count))")
        }
        guard parts.allSatisfy({ $0.kind != .combined }) else {
            throw SpecError(.kind, "combined joins starts, ends, distance and countdown markers, not other combined markers")
        }
        let marks = parts.compactMap(\.decimalMark)
        guard marks.allSatisfy({ $0 == marks.first }) else {
            throw SpecError(.locale, "is one for all of a combined marker's parts: they read with one decimal mark")
        }
        self.kind = .combined
        self.unit = unit
        self.parts = parts
    }

    /// The distance as given: a combined marker's is its last part's.
    public var distance: Double { parts[parts.count - 1].distance }

    /// The label's number, as the marker shows it (a combined marker's last part).
    public var number: String { parts[parts.count - 1].number }

    public static func == (lhs: Marker, rhs: Marker) -> Bool {
        lhs.kind == rhs.kind && lhs.unit == rhs.unit && lhs.parts == rhs.parts
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(kind)
        hasher.combine(unit)
        hasher.combine(parts)
    }

    /// The full label, e.g. `7.5km` or `7,5km`; for a combined marker its parts in order, `start0km_end8.6km`
    /// or `distance3km_distance17km`, which is also how file names spell it.
    public var label: String {
        guard kind == .combined else { return number + unit.rawValue }
        return parts.map { "\($0.kind.rawValue)\($0.number)\(unit.rawValue)" }.joined(separator: "_")
    }
}
