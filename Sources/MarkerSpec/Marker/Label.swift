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
