#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A JSON value, written byte for byte as Foundation's `JSONEncoder` writes the same value with
/// `.sortedKeys` (keys in UTF-8 order), and optionally `.prettyPrinted` and
/// `.withoutEscapingSlashes`, without its `Codable` boxing: through `JSONEncoder`, a 2,000-marker
/// route's markers.geojson and manifest took a tenth of the whole `route` run.
public enum JSONValue: Sendable, Equatable {
    case string(String)
    case integer(Int)
    /// Finite only: JSON has no NaN or infinity (writing one throws).
    case number(Double)
    case bool(Bool)
    case null
    case array([JSONValue])
    /// Members in any order (they are written sorted); keys must be distinct.
    case object([Member])

    /// One member of an object.
    public struct Member: Sendable, Equatable {
        public var key: String
        public var value: JSONValue

        public init(_ key: String, _ value: JSONValue) {
            self.key = key
            self.value = value
        }
    }

    /// `value`, or `null` when it is nil.
    public static func optional(_ value: String?) -> JSONValue { value.map(JSONValue.string) ?? .null }

    /// How the bytes are laid out, named after `JSONEncoder.OutputFormatting`.
    public struct Formatting: Sendable, Equatable {
        public var prettyPrinted: Bool
        public var withoutEscapingSlashes: Bool

        public init(prettyPrinted: Bool = false, withoutEscapingSlashes: Bool = false) {
            self.prettyPrinted = prettyPrinted
            self.withoutEscapingSlashes = withoutEscapingSlashes
        }
    }

    /// A number JSON cannot hold.
    public struct NonFiniteNumber: Error, CustomStringConvertible {
        public let value: Double
        public var description: String { "\(value) is not a JSON number" }
    }

    /// The value's JSON text.
    public func bytes(_ formatting: Formatting = Formatting()) throws(NonFiniteNumber) -> [UInt8] {
        var writer = Writer(formatting: formatting)
        try writer.write(self)
        return writer.bytes
    }

    private struct Writer {
        let formatting: Formatting
        var bytes: [UInt8] = []
        var indent = 0

        init(formatting: Formatting) {
            self.formatting = formatting
            bytes.reserveCapacity(4096)
        }

        mutating func write(_ value: JSONValue) throws(NonFiniteNumber) {
            switch value {
            case .string(let string): write(string: string)
            case .integer(let integer): write(integer: integer)
            case .number(let number):
                guard number.isFinite else { throw NonFiniteNumber(value: number) }
                // Whole numbers below 10^15 are spelled as integers (distances, zooms, sizes): the
                // same digits, without making and trimming a string.
                if number.magnitude < 1e15, number.rounded(.towardZero) == number {
                    if number == 0, number.sign == .minus { bytes.append(UInt8(ascii: "-")) }
                    write(integer: Int(number))
                    return
                }
                write(number: number)
            case .bool(let bool): bytes.append(contentsOf: bool ? Self.trueBytes : Self.falseBytes)
            case .null: bytes.append(contentsOf: Self.nullBytes)
            case .array(let elements):
                bytes.append(UInt8(ascii: "["))
                open()
                for index in elements.indices {
                    if index > 0 { separate() }
                    if formatting.prettyPrinted { writeIndent() }
                    try write(elements[index])
                }
                close(UInt8(ascii: "]"))
            case .object(let members):
                bytes.append(UInt8(ascii: "{"))
                open()
                if formatting.prettyPrinted, !members.isEmpty { writeIndent() }
                // Members are mostly built in order already: checking is cheaper than sorting.
                var inOrder = true
                for index in members.indices.dropFirst() where !Self.precedes(members[index - 1].key, members[index].key) {
                    inOrder = false
                    break
                }
                let sorted = inOrder ? members : members.sorted { Self.precedes($0.key, $1.key) }
                for index in sorted.indices {
                    let member = sorted[index]
                    if index > 0 {
                        separate()
                        if formatting.prettyPrinted { writeIndent() }
                    }
                    write(string: member.key)
                    if formatting.prettyPrinted {
                        bytes.append(contentsOf: Self.prettyColon)
                    } else {
                        bytes.append(UInt8(ascii: ":"))
                    }
                    try write(member.value)
                }
                close(UInt8(ascii: "}"))
            }
        }

        /// UTF-8 order, as JSONEncoder sorts keys.
        static func precedes(_ a: String, _ b: String) -> Bool {
            let ordered = a.utf8.withContiguousStorageIfAvailable { a in
                b.utf8.withContiguousStorageIfAvailable { b in
                    let common = min(a.count, b.count)
                    if common > 0, let left = a.baseAddress, let right = b.baseAddress {
                        let order = memcmp(left, right, common)
                        if order != 0 { return order < 0 }
                    }
                    return a.count < b.count
                }
            }
            return (ordered ?? nil) ?? a.utf8.lexicographicallyPrecedes(b.utf8)
        }

        private mutating func write(integer: Int) {
            if integer < 0 { bytes.append(UInt8(ascii: "-")) }
            var magnitude = integer.magnitude
            var digits:
                (
                    UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8,
                    UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8
                ) = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
            var count = 0
            withUnsafeMutableBytes(of: &digits) { buffer in
                repeat {
                    buffer[19 - count] = UInt8(ascii: "0") + UInt8(magnitude % 10)
                    magnitude /= 10
                    count += 1
                } while magnitude > 0
                bytes.append(contentsOf: buffer[(20 - count)...])
            }
        }

        private mutating func open() {
            guard formatting.prettyPrinted else { return }
            bytes.append(UInt8(ascii: "\n"))
            indent += 1
        }

        private mutating func separate() {
            bytes.append(UInt8(ascii: ","))
            if formatting.prettyPrinted { bytes.append(UInt8(ascii: "\n")) }
        }

        private mutating func close(_ bracket: UInt8) {
            if formatting.prettyPrinted {
                bytes.append(UInt8(ascii: "\n"))
                indent -= 1
                writeIndent()
            }
            bytes.append(bracket)
        }

        private mutating func writeIndent() {
            bytes.append(contentsOf: repeatElement(UInt8(ascii: " "), count: 2 * indent))
        }

        // Literals as bytes made once: appending a string's UTF-8 view goes through its iterator.
        private static let trueBytes = Array("true".utf8)
        private static let falseBytes = Array("false".utf8)
        private static let nullBytes = Array("null".utf8)
        private static let prettyColon = Array(" : ".utf8)

        /// JSONEncoder's spelling of a number: the shortest form that reads back to it, as
        /// `description` spells it, without a trailing ".0". Written through `TextOutputStream`,
        /// whose ASCII entry point hands over the digits without making a string.
        private mutating func write(number: Double) {
            var sink = ASCIISink(bytes: bytes)
            bytes = []  // the sink holds the only reference, so it appends in place
            number.write(to: &sink)
            bytes = sink.bytes
            if bytes.count >= 2, bytes[bytes.count - 2] == UInt8(ascii: "."), bytes[bytes.count - 1] == UInt8(ascii: "0") {
                bytes.removeLast(2)
            }
        }

        /// Collects what a `TextOutputStreamable` writes, as bytes.
        private struct ASCIISink: TextOutputStream {
            var bytes: [UInt8]

            mutating func write(_ string: String) { bytes.append(contentsOf: string.utf8) }

            /// The standard library's entry point for ASCII text (numbers write through it).
            mutating func _writeASCII(_ buffer: UnsafeBufferPointer<UInt8>) { bytes.append(contentsOf: buffer) }
        }

        /// Quotes and escapes as JSONEncoder does: `"`, `\`, control characters and, unless told
        /// otherwise, `/`; every other byte as it is.
        private mutating func write(string: String) {
            bytes.append(UInt8(ascii: "\""))
            let slashes = formatting.withoutEscapingSlashes
            var string = string
            let plain = string.withUTF8 { text in
                // Most strings need no escape: one copy.
                guard
                    !text.contains(where: {
                        $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") || (!slashes && $0 == UInt8(ascii: "/"))
                    })
                else { return false }
                bytes.append(contentsOf: text)
                return true
            }
            if plain {
                bytes.append(UInt8(ascii: "\""))
                return
            }
            for byte in string.utf8 {
                switch byte {
                case UInt8(ascii: "\""): bytes.append(contentsOf: #"\""#.utf8)
                case UInt8(ascii: "\\"): bytes.append(contentsOf: #"\\"#.utf8)
                case UInt8(ascii: "/") where !formatting.withoutEscapingSlashes: bytes.append(contentsOf: #"\/"#.utf8)
                case 0x08: bytes.append(contentsOf: #"\b"#.utf8)
                case 0x0C: bytes.append(contentsOf: #"\f"#.utf8)
                case 0x0A: bytes.append(contentsOf: #"\n"#.utf8)
                case 0x0D: bytes.append(contentsOf: #"\r"#.utf8)
                case 0x09: bytes.append(contentsOf: #"\t"#.utf8)
                case 0x00...0x1F:
                    let hex = Array("0123456789abcdef".utf8)
                    bytes.append(contentsOf: #"\u00"#.utf8)
                    bytes.append(hex[Int(byte >> 4)])
                    bytes.append(hex[Int(byte & 0xF)])
                default: bytes.append(byte)
                }
            }
            bytes.append(UInt8(ascii: "\""))
        }
    }
}
