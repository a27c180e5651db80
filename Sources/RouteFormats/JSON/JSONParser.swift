import RouteModel

/// A strict RFC 8259 parser over bytes (plus `NaN` and `±Infinity`), whose errors give line and column.
///
/// Written here rather than using JSONSerialization so that a malformed file is reported at its
/// line and column, and a non-finite number reaches the GeoJSON reader to be reported at its coordinate.
struct JSONParser {
    let bytes: [UInt8]
    /// The next byte to read.
    var index: Int
    private var depth = 0
    /// Whether arrays of number arrays are read flat (`parseNumberArrays`); tests turn it off to
    /// hold the flat reading to the value-by-value one.
    private var flattensNumberArrays = true

    /// Deeper nesting than any GeoJSON needs; the limit keeps hostile input from exhausting the stack.
    private static let maximumDepth = 512

    /// Parses one JSON value that makes up the whole of `bytes` (a UTF-8 byte order mark is skipped).
    static func parse(_ bytes: [UInt8], flatteningNumberArrays: Bool = true) throws(RouteError) -> JSONNode {
        var parser = JSONParser(bytes: bytes, index: bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0)
        parser.flattensNumberArrays = flatteningNumberArrays
        parser.skipWhitespace()
        let value = try parser.parseValue()
        parser.skipWhitespace()
        guard parser.index == bytes.count else {
            throw parser.error("unexpected \(parser.describeCurrent()) after the end of the JSON value")
        }
        return value
    }

    private init(bytes: [UInt8], index: Int) {
        self.bytes = bytes
        self.index = index
    }

    // MARK: Values

    private mutating func parseValue() throws(RouteError) -> JSONNode {
        guard index < bytes.count else { throw error("unexpected end of input (is the file truncated?)") }
        switch bytes[index] {
        case UInt8(ascii: "{"): return try parseObject()
        case UInt8(ascii: "["): return try parseArray()
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"):
            try expectWord("true")
            return .bool(true)
        case UInt8(ascii: "f"):
            try expectWord("false")
            return .bool(false)
        case UInt8(ascii: "n"):
            try expectWord("null")
            return .null
        case UInt8(ascii: "N"):
            try expectWord("NaN")
            return .number(.nan)
        case UInt8(ascii: "I"):
            try expectWord("Infinity")
            return .number(.infinity)
        case UInt8(ascii: "-") where index + 1 < bytes.count && bytes[index + 1] == UInt8(ascii: "I"):
            index += 1
            try expectWord("Infinity")
            return .number(-.infinity)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try parseNumber())
        default: throw error("unexpected \(describeCurrent()) where a value should start")
        }
    }

    private mutating func parseArray() throws(RouteError) -> JSONNode {
        if flattensNumberArrays, let arrays = try parseNumberArrays() { return .numberArrays(arrays) }
        try enter()
        index += 1  // [
        var elements: [JSONNode] = []
        skipWhitespace()
        if try consume(UInt8(ascii: "]")) {
            depth -= 1
            return .array(elements)
        }
        while true {
            elements.append(try parseValue())
            skipWhitespace()
            if try consume(UInt8(ascii: ",")) {
                skipWhitespace()
                continue
            }
            if try consume(UInt8(ascii: "]")) { break }
            throw error("expected ',' or ']' after an array element, found \(describeCurrent())")
        }
        depth -= 1
        return .array(elements)
    }

    /// An array of arrays of numbers (a line's positions), read flat; nil, with nothing consumed,
    /// if the array at `index` is anything else, which `parseArray` then reads value by value and
    /// reports as it always has. A malformed number throws here just as it would there.
    private mutating func parseNumberArrays() throws(RouteError) -> JSONNode.NumberArrays? {
        // Past the depth limit the general path must be the one to refuse.
        guard depth + 2 <= Self.maximumDepth else { return nil }
        let start = index
        var arrays = JSONNode.NumberArrays()
        index += 1  // [
        skipWhitespace()
        while isNext(UInt8(ascii: "[")) {
            index += 1  // an inner [
            skipWhitespace()
            var closed = false
            while !closed {
                guard startsFlatNumber() else { break }
                arrays.numbers.append(try parseNumber())
                guard let next = closeOrSeparator() else { break }
                closed = next
            }
            guard closed else { break }
            arrays.ends.append(arrays.numbers.count)
            guard let last = closeOrSeparator() else { break }
            if last { return arrays }
        }
        index = start
        return nil
    }

    /// Whether the byte at `index` is `byte`.
    private func isNext(_ byte: UInt8) -> Bool { index < bytes.count && bytes[index] == byte }

    /// Whether a number the flat reading takes starts at `index`: not `NaN` or `-Infinity` (nor
    /// the end of an empty array), which the general path reads and reports.
    private func startsFlatNumber() -> Bool {
        guard index + 1 < bytes.count else { return false }
        let byte = bytes[index]
        let sign = byte == UInt8(ascii: "-")
        return (sign || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)) && bytes[index + 1] != UInt8(ascii: "I")
    }

    /// After whitespace, consumes `]` (true) or `,` and the whitespace after it (false); nil for
    /// anything else, or the end of the input.
    private mutating func closeOrSeparator() -> Bool? {
        skipWhitespace()
        guard index < bytes.count else { return nil }
        switch bytes[index] {
        case UInt8(ascii: "]"):
            index += 1
            return true
        case UInt8(ascii: ","):
            index += 1
            skipWhitespace()
            return false
        default:
            return nil
        }
    }

    private mutating func parseObject() throws(RouteError) -> JSONNode {
        try enter()
        index += 1  // {
        var members: [JSONNode.Member] = []
        skipWhitespace()
        if try consume(UInt8(ascii: "}")) {
            depth -= 1
            return .object(members)
        }
        while true {
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else {
                throw error("expected a quoted member name, found \(describeCurrent())")
            }
            let key = try parseString()
            skipWhitespace()
            guard try consume(UInt8(ascii: ":")) else {
                throw error("expected ':' after a member name, found \(describeCurrent())")
            }
            skipWhitespace()
            members.append(JSONNode.Member(key: key, value: try parseValue()))
            skipWhitespace()
            if try consume(UInt8(ascii: ",")) {
                skipWhitespace()
                continue
            }
            if try consume(UInt8(ascii: "}")) { break }
            throw error("expected ',' or '}' after an object member, found \(describeCurrent())")
        }
        depth -= 1
        return .object(members)
    }

    private mutating func parseNumber() throws(RouteError) -> Double {
        let start = index
        var mantissa: UInt64 = 0
        var exactMantissa = true
        var decimalExponent = 0

        func isDigit(_ i: Int) -> Bool { i < bytes.count && bytes[i] >= UInt8(ascii: "0") && bytes[i] <= UInt8(ascii: "9") }
        func accumulate(_ digit: UInt8) {
            guard exactMantissa else { return }
            // Beyond 2^53 the mantissa is no longer exact in a Double; leave it to the slow path.
            if mantissa > (1 << 53 - 9) / 10 {
                exactMantissa = false
            } else {
                mantissa = mantissa * 10 + UInt64(digit - UInt8(ascii: "0"))
            }
        }

        let negative = bytes[index] == UInt8(ascii: "-")
        if negative { index += 1 }
        guard isDigit(index) else { throw error("malformed number: expected a digit after '-'") }
        if bytes[index] == UInt8(ascii: "0") {
            index += 1
            if isDigit(index) { throw error("malformed number: a leading zero may not be followed by digits") }
        } else {
            while isDigit(index) {
                accumulate(bytes[index])
                index += 1
            }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            guard isDigit(index) else { throw error("malformed number: expected a digit after '.'") }
            while isDigit(index) {
                accumulate(bytes[index])
                decimalExponent -= 1
                index += 1
            }
        }
        var hasExponent = false
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            hasExponent = true
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
            guard isDigit(index) else { throw error("malformed number: expected a digit in the exponent") }
            while isDigit(index) { index += 1 }
        }

        // Clinger's fast path: an exact mantissa times or divided by an exact power of ten is one
        // correctly rounded operation, so it equals what strtod would give. That covers the
        // coordinates of nearly every file and is much cheaper than making a String per number.
        if exactMantissa, !hasExponent, -decimalExponent < Self.powersOfTen.count {
            let magnitude = Double(mantissa) / Self.powersOfTen[-decimalExponent]
            return negative ? -magnitude : magnitude
        }
        let text = String(decoding: bytes[start..<index], as: UTF8.self)
        guard let value = Double(text) else { throw error("malformed number \(text)") }
        return value
    }

    /// 10⁰ … 10²², every power of ten that a Double holds exactly.
    private static let powersOfTen: [Double] = (0...22).map { exponent in
        (0..<exponent).reduce(1.0) { power, _ in power * 10 }
    }

    // MARK: Helpers

    private mutating func enter() throws(RouteError) {
        depth += 1
        guard depth <= Self.maximumDepth else { throw error("nested more than \(Self.maximumDepth) levels deep") }
    }

    private mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\n"), UInt8(ascii: "\r"): index += 1
            default: return
            }
        }
    }

    /// Consumes `byte` if it is next; a missing byte at the end of input is a truncation.
    private mutating func consume(_ byte: UInt8) throws(RouteError) -> Bool {
        guard index < bytes.count else { throw error("unexpected end of input (is the file truncated?)") }
        guard bytes[index] == byte else { return false }
        index += 1
        return true
    }

    private mutating func expectWord(_ word: String) throws(RouteError) {
        let utf8 = Array(word.utf8)
        guard bytes[index...].starts(with: utf8) else {
            throw error("unexpected \(describeCurrent()) where a value should start")
        }
        index += utf8.count
    }

    func describeCurrent() -> String {
        guard index < bytes.count else { return "end of input" }
        let byte = bytes[index]
        if (0x21..<0x7F).contains(byte) { return "'\(Character(Unicode.Scalar(byte)))'" }
        return "byte 0x\(String(byte, radix: 16, uppercase: true))"
    }

    /// An error at the current position: "not valid JSON: line 3, column 17: …" (column counted in bytes).
    func error(_ problem: String) -> RouteError {
        let position = TextPosition(of: min(index, bytes.count), in: bytes)
        return RouteError("not valid JSON: \(position): \(problem)")
    }
}
