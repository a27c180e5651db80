/// A straight-alpha sRGB colour with components in 0...1.
public struct Colour: Sendable, Hashable {
    public var red: Double
    public var green: Double
    public var blue: Double
    public var alpha: Double

    public init(red: Double, green: Double, blue: Double, alpha: Double = 1) {
        self.red = red
        self.green = green
        self.blue = blue
        self.alpha = alpha
    }

    /// A colour from 0–255 channels and a 0–1 alpha, as CSS writes `rgba(35,35,35,0.85)`.
    public init(rgb red: Int, _ green: Int, _ blue: Int, alpha: Double = 1) {
        self.init(red: Double(red) / 255, green: Double(green) / 255, blue: Double(blue) / 255, alpha: alpha)
    }

    /// Parses a CSS colour: `#RGB`, `#RRGGBB`, `#RRGGBBAA`, `rgb(r,g,b)` or `rgba(r,g,b,a)`.
    public init(css text: String) throws(SpecError) {
        let value = Self.trimmed(text).lowercased()
        if value.hasPrefix("#") {
            self = try Colour.hex(String(value.dropFirst()), original: text)
        } else if let open = value.firstIndex(of: "("), value.hasSuffix(")") {
            let function = Self.trimmed(value[..<open])
            let arguments = value[value.index(after: open)..<value.index(before: value.endIndex)]
                .split(separator: ",", omittingEmptySubsequences: false)
                .map { Self.trimmed($0) }
            switch (function, arguments.count) {
            case ("rgb", 3), ("rgba", 4):
                let channels = try arguments.prefix(3).map { (part: String) throws(SpecError) -> Int in
                    guard let channel = Int(part), (0...255).contains(channel) else {
                        throw SpecError(.colour, "\"\(text)\": channel \"\(part)\" is not a whole number from 0 to 255")
                    }
                    return channel
                }
                var alpha = 1.0
                if arguments.count == 4 {
                    guard let parsed = Double(arguments[3]), parsed.isFinite, (0...1).contains(parsed) else {
                        throw SpecError(.colour, "\"\(text)\": alpha \"\(arguments[3])\" is not a number from 0 to 1")
                    }
                    alpha = parsed
                }
                self.init(rgb: channels[0], channels[1], channels[2], alpha: alpha)
            default:
                throw SpecError(.colour, "\"\(text)\" is not #RRGGBB, rgb(r,g,b) or rgba(r,g,b,a)")
            }
        } else {
            throw SpecError(.colour, "\"\(text)\" is not #RRGGBB, rgb(r,g,b) or rgba(r,g,b,a)")
        }
    }

    /// `#rrggbb`, as `init(css:)` reads it back; the alpha left out.
    public var hex: String {
        let digits = Array("0123456789abcdef")
        func channel(_ value: Double) -> String {
            let byte = Int((min(1, max(0, value)) * 255).rounded())
            return String(digits[byte >> 4]) + String(digits[byte & 0xF])
        }
        return "#" + channel(red) + channel(green) + channel(blue)
    }

    private static func hex(_ digits: String, original: String) throws(SpecError) -> Colour {
        let expanded: String
        switch digits.count {
        case 3, 4: expanded = digits.map { "\($0)\($0)" }.joined()
        case 6, 8: expanded = digits
        default: throw SpecError(.colour, "\"\(original)\" needs 3, 4, 6 or 8 hex digits")
        }
        guard expanded.allSatisfy(\.isHexDigit), let packed = UInt32(expanded, radix: 16) else {
            throw SpecError(.colour, "\"\(original)\" has a character that is not a hex digit")
        }
        let value = expanded.count == 8 ? packed : packed << 8 | 0xFF
        return Colour(
            rgb: Int(value >> 24 & 0xFF), Int(value >> 16 & 0xFF), Int(value >> 8 & 0xFF),
            alpha: Double(value & 0xFF) / 255)
    }

    /// The same colour with alpha `alpha`.
    public func withAlpha(_ alpha: Double) -> Colour {
        Colour(red: red, green: green, blue: blue, alpha: alpha)
    }

    /// The same colour with its alpha multiplied by `factor`.
    public func fading(by factor: Double) -> Colour {
        Colour(red: red, green: green, blue: blue, alpha: alpha * factor)
    }

    /// `text` without the spaces and tabs around it.
    private static func trimmed(_ text: some StringProtocol) -> String {
        let isBlank: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        guard let first = text.firstIndex(where: { !isBlank($0) }), let last = text.lastIndex(where: { !isBlank($0) }) else {
            return ""
        }
        return String(text[first...last])
    }
}
