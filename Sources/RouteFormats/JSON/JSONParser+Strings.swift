import RouteModel

// Strings: the only part of JSON with escapes, kept apart from the grammar of values.
extension JSONParser {
    /// Reads a string from its opening quote, decoding escapes.
    mutating func parseString() throws(RouteError) -> String {
        let opening = index
        index += 1  // "
        let start = index
        // Most strings have no escapes; those are decoded straight from the input.
        while index < bytes.count, bytes[index] >= 0x20, bytes[index] != UInt8(ascii: "\""),
            bytes[index] != UInt8(ascii: "\\")
        {
            index += 1
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "\"") {
            index += 1
            return String(decoding: bytes[start..<(index - 1)], as: UTF8.self)
        }
        var decoded = Array(bytes[start..<index])
        while true {
            guard index < bytes.count else {
                index = opening
                throw error("a string that starts here is never closed (is the file truncated?)")
            }
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "\""):
                index += 1
                return String(decoding: decoded, as: UTF8.self)
            case UInt8(ascii: "\\"):
                index += 1
                guard index < bytes.count else { continue }
                let escape = bytes[index]
                index += 1
                switch escape {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): decoded.append(escape)
                case UInt8(ascii: "b"): decoded.append(0x08)
                case UInt8(ascii: "f"): decoded.append(0x0C)
                case UInt8(ascii: "n"): decoded.append(0x0A)
                case UInt8(ascii: "r"): decoded.append(0x0D)
                case UInt8(ascii: "t"): decoded.append(0x09)
                case UInt8(ascii: "u"): decoded.append(contentsOf: try parseUnicodeEscape())
                default:
                    index -= 2
                    throw error("invalid escape '\\\(Character(Unicode.Scalar(escape)))' in a string")
                }
            case 0..<0x20:
                throw error("unescaped control character 0x\(String(byte, radix: 16)) in a string")
            default:
                decoded.append(byte)
                index += 1
            }
        }
    }

    /// Decodes the XXXX of `\uXXXX` (and a following low surrogate) to UTF-8; lone surrogates become U+FFFD.
    private mutating func parseUnicodeEscape() throws(RouteError) -> [UInt8] {
        let high = try parseHexQuad()
        var scalar = Unicode.Scalar(high)
        if (0xD800..<0xDC00).contains(high), bytes[index...].starts(with: [UInt8(ascii: "\\"), UInt8(ascii: "u")]) {
            let save = index
            index += 2
            let low = try parseHexQuad()
            if (0xDC00..<0xE000).contains(low) {
                scalar = Unicode.Scalar(0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00))
            } else {
                index = save
            }
        }
        return Array(String(Character(scalar ?? "\u{FFFD}")).utf8)
    }

    private mutating func parseHexQuad() throws(RouteError) -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard index < bytes.count, let digit = hexValue(bytes[index]) else {
                throw error("expected 4 hexadecimal digits after \\u")
            }
            value = value << 4 | digit
            index += 1
        }
        return value
    }

    private func hexValue(_ byte: UInt8) -> UInt32? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt32(byte - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): UInt32(byte - UInt8(ascii: "a") + 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F"): UInt32(byte - UInt8(ascii: "A") + 10)
        default: nil
        }
    }
}
