/// How distances become label text.
public enum Label {
    /// What separates a number's whole part from its tenth: `7.5km`, or `7,5km` in German and French.
    public enum DecimalMark: String, Sendable, CaseIterable, Codable {
        case point = "."
        case comma = ","
    }

    /// How many decimals a label shows.
    public enum Precision: Sendable, Hashable {
        /// MARKER.md's rule: whole from 10 (half up), one decimal below unless whole.
        case standard
        /// One decimal at any length unless whole (`10.5km`), for routes with markers between whole units.
        case tenths
    }

    /// The label's number for `distance`, rounded half up as `precision` says and written with `mark`.
    public static func number(for distance: Double, mark: DecimalMark = .point, precision: Precision = .standard) -> String {
        if distance >= 9.95 && precision == .standard {
            return String(Int((distance + 0.5).rounded(.down)))
        }
        let tenths = Int((distance * 10 + 0.5).rounded(.down))
        return tenths % 10 == 0 ? String(tenths / 10) : "\(tenths / 10)\(mark.rawValue)\(tenths % 10)"
    }

    /// A number for a message: no exponent, no trailing `.0`.
    static func plain(_ value: Double) -> String {
        if value.isNaN || value.isInfinite { return "\(value)" }
        if value == value.rounded(), abs(value) < 1e15 { return String(Int(value)) }
        return "\(value)"
    }
}
