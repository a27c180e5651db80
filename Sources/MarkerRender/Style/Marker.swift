/// What a marker says: its kind, its distance and the unit.
///
/// Two markers are equal when they show the same picture: kind, label number and unit (123 and
/// 123.2 both read `123km`), so rendering once, caching and naming all go by what is drawn.
public struct Marker: Sendable, Hashable {
    public enum Kind: String, Sendable, CaseIterable, Codable {
        case start, distance, end
    }

    public enum Unit: String, Sendable, CaseIterable, Codable {
        case km, mi
    }

    /// The longest distance a marker may show; longer is a mistake, not a route.
    public static let maximumDistance = 100_000.0

    public let kind: Kind
    public let distance: Double
    public let unit: Unit
    /// The label's number, as the marker shows it.
    public let number: String

    /// A marker, checked: a finite distance from 0 to `maximumDistance`, and 0 for a start marker.
    public init(kind: Kind, distance: Double, unit: Unit = .km) throws(RenderError) {
        guard distance.isFinite else {
            throw RenderError("distance must be a finite number, not \(distance)")
        }
        guard distance >= 0 else {
            throw RenderError("distance must not be negative (got \(Label.plain(distance)))")
        }
        guard distance <= Self.maximumDistance else {
            throw RenderError("distance \(Label.plain(distance)) is more than the largest supported, \(Int(Self.maximumDistance))")
        }
        guard kind != .start || distance == 0 else {
            throw RenderError("a start marker is always at distance 0 (got \(Label.plain(distance)))")
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

/// How distances become label text.
public enum Label {
    /// Whole numbers from 10 up (half up); below 10 one decimal unless the value is whole.
    public static func number(for distance: Double) -> String {
        if distance >= 9.95 {
            return String(Int((distance + 0.5).rounded(.down)))
        }
        let tenths = Int((distance * 10 + 0.5).rounded(.down))
        return tenths % 10 == 0 ? String(tenths / 10) : "\(tenths / 10).\(tenths % 10)"
    }

    /// A number for a message: no exponent, no trailing `.0`.
    static func plain(_ value: Double) -> String {
        if value.isNaN || value.isInfinite { return "\(value)" }
        if value == value.rounded(), abs(value) < 1e15 { return String(Int(value)) }
        return "\(value)"
    }
}

/// One image to draw: a marker, its theme and its pixel scale.
public struct MarkerRequest: Sendable, Hashable {
    public static let scales: ClosedRange<Int> = 1...3

    public let marker: Marker
    public let theme: Theme
    public let scale: Int

    public init(marker: Marker, theme: Theme, scale: Int) throws(RenderError) {
        guard Self.scales.contains(scale) else {
            throw RenderError("scale must be 1, 2 or 3 (got \(scale))")
        }
        self.marker = marker
        self.theme = theme
        self.scale = scale
    }

    /// The readable part of the file name: `end-123km-night@2x`.
    public var baseName: String {
        "\(marker.kind.rawValue)-\(marker.label)-\(theme.name)@\(scale)x"
    }
}
