/// How distances become label text.
public enum Label {
    /// What separates a number's whole part from its tenth: `7.5km`, or `7,5km` in German and French.
    public enum DecimalMark: String, Sendable, CaseIterable, Codable {
        case point = "."
        case comma = ","
    }

    /// The value a label shows for `distance`: whole from 9.95 up (rounded half up), else to a tenth.
    public static func shown(_ distance: Double) -> Double {
        if distance >= 9.95 { return (distance + 0.5).rounded(.down) }
        return (distance * 10 + 0.5).rounded(.down) / 10
    }

    /// Whole numbers from 10 up (half up); below 10 one decimal unless the value is whole, written with `mark`.
    public static func number(for distance: Double, mark: DecimalMark = .point) -> String {
        if distance >= 9.95 {
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
