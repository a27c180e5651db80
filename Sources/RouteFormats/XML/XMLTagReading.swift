import RouteModel

/// What a document reader asks of an element's start tag, whichever parser read it.
protocol XMLTagReading {
    /// Whether the name without its namespace prefix (`trkpt` in `gpx:trkpt`) is `expected`.
    func hasLocalName(_ expected: StaticString) -> Bool
    /// The name as written, prefix included.
    var qualifiedName: String { get }
    /// The value of the attribute named exactly `attribute`, as XML normalises it; nil if absent.
    func value(of attribute: StaticString) -> String?
    /// The value of `attribute` when it is a plain decimal (see `PlainDecimal`); nil otherwise.
    func plainNumber(of attribute: StaticString) -> Double?
}

/// A plain decimal (`45.123456`, `-7`) read straight from bytes, without a String.
///
/// At most 15 digits, an optional leading `-` and one `.`, nothing else; read exactly as
/// `Double(_:)` reads it: the digits as an integer below 2⁵³ divided by a power of ten up to 10¹⁵,
/// both exact in a Double, is one correctly rounded division (Clinger's fast path).
enum PlainDecimal {
    /// The number `bytes` spell, or nil for anything that is not a plain decimal (`""`, `"-"`,
    /// `"."` and `"5."` included), which the caller then reads the general way.
    static func value(_ bytes: UnsafeBufferPointer<UInt8>) -> Double? {
        let (end, value) = prefix(of: bytes, from: 0)
        return end == bytes.count ? value : nil
    }

    /// Reads as far as a plain decimal's characters go from `start` (`-`, digits, `.`, digits):
    /// where they end, and their value if they spell a plain decimal.
    static func prefix(of bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> (end: Int, value: Double?) {
        var index = start
        let negative = index < bytes.count && bytes[index] == UInt8(ascii: "-")
        if negative { index += 1 }
        // Signed, so the conversion to Double is one instruction. Wrapping: a spelling of more than
        // 15 digits is refused below, whatever it wrapped to.
        var mantissa: Int64 = 0
        func digits() -> Int {
            let first = index
            while index < bytes.count, bytes[index] &- UInt8(ascii: "0") < 10 {
                mantissa = mantissa &* 10 &+ Int64(bytes[index] &- UInt8(ascii: "0"))
                index += 1
            }
            return index - first
        }
        let integerDigits = digits()
        var fractionDigits = 0
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            fractionDigits = digits()
            // "5." and "." are left to the general path.
            guard fractionDigits > 0 else { return (index, nil) }
        }
        guard (1...15).contains(integerDigits + fractionDigits) else { return (index, nil) }
        let magnitude = Double(mantissa) / powerOfTen(fractionDigits)
        return (index, negative ? -magnitude : magnitude)
    }

    /// 10ⁿ for n in 0…15, each exact in a Double; spelled out, so no table is looked up through a lazy global.
    @inline(__always)
    private static func powerOfTen(_ exponent: Int) -> Double {
        switch exponent {
        case 0: 1
        case 1: 1e1
        case 2: 1e2
        case 3: 1e3
        case 4: 1e4
        case 5: 1e5
        case 6: 1e6
        case 7: 1e7
        case 8: 1e8
        case 9: 1e9
        case 10: 1e10
        case 11: 1e11
        case 12: 1e12
        case 13: 1e13
        case 14: 1e14
        default: 1e15
        }
    }
}
