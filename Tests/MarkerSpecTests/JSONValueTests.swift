import Foundation
import MarkerSpec
import TestSupport
import Testing

/// markerpaint's JSON writer against Foundation's JSONEncoder, which it replaces for speed.
@Suite("JSON writer")
struct JSONValueTests {
    static let strings = [
        "", "plain", "quote \" and backslash \\", "a/b/c", "tab\tnew\nline\r", "\u{8}\u{c}", "\u{0}\u{1}\u{1f}\u{7f}", "é ñ 日本 🚲",
        "</script>",
    ]
    static let numbers: [Double] = [
        0, -0.0, 1, -1, 0.1, 1.5, 10, 123.456, 1e-7, 1e21, 1e22, 123_456_789.123, .leastNonzeroMagnitude, .greatestFiniteMagnitude, 45.80725, 13.9999999,
        // Around where whole numbers stop being spelled as integers.
        999_999_999_999_999, -999_999_999_999_999, 1e15, 9_007_199_254_740_992, 1e16, 4_503_599_627_370_495.5, 0.5, -0.5,
    ]

    /// A document using every kind of value, nesting, empty containers and keys whose UTF-8 order differs from other orders.
    static var document: JSONValue {
        .object([
            .init("strings", .array(strings.map(JSONValue.string))),
            // Not -0.0 or 1e16: they read back as integers (0, 10000000000000000), so only `number(_:)` checks them.
            .init("numbers", .array(numbers.filter { ($0 != 0 || $0.sign == .plus) && $0 != 1e16 }.map(JSONValue.number))),
            .init("integers", .array([0, -1, 42, Int.max, Int.min].map(JSONValue.integer))),
            .init("flags", .array([.bool(true), .bool(false), .null])),
            .init("empty", .object([.init("array", .array([])), .init("object", .object([])), .init("nested", .array([.array([]), .object([])]))])),
            .init(
                "order",
                .object(["b", "B", "a", "A", "10", "9", "é", "z", "a/b", "_", "stage_name", "stage"].map { .init($0, .integer($0.utf8.count)) })),
            .init(strings[2], .string("key needing escapes")),
        ])
    }

    static let formattings: [(JSONValue.Formatting, JSONEncoder.OutputFormatting)] = [
        (.init(), [.sortedKeys]),
        (.init(withoutEscapingSlashes: true), [.sortedKeys, .withoutEscapingSlashes]),
        (.init(prettyPrinted: true), [.sortedKeys, .prettyPrinted]),
        (.init(prettyPrinted: true, withoutEscapingSlashes: true), [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]),
    ]

    @Test("a document of every kind of value is written byte for byte as JSONEncoder writes it", arguments: formattings)
    func sameBytesAsJSONEncoder(formatting: JSONValue.Formatting, foundation: JSONEncoder.OutputFormatting) throws {
        let ours = try Self.document.bytes(formatting)
        #expect(try FoundationJSON.reencoded(ours, formatting: foundation) == ours, "\(String(decoding: ours, as: UTF8.self))")
    }

    @Test("each number is spelled as JSONEncoder spells it", arguments: numbers)
    func number(_ value: Double) throws {
        let encoder = JSONEncoder()
        #expect(try JSONValue.number(value).bytes() == Array(try encoder.encode(value)))
    }

    @Test("whole numbers of every size, and their neighbours, are spelled as JSONEncoder spells them")
    func wholeNumbers() throws {
        var generator = SeededGenerator(seed: 15)
        var values: [Double] = []
        for _ in 0..<3_000 {
            let whole =
                Double(Int64.random(in: -(1 << 53)...(1 << 53), using: &generator)) / pow(10, Double(Int.random(in: 0...15, using: &generator)))
            values += [whole.rounded(.towardZero), whole.nextUp, whole.nextDown]
        }
        let ours = try JSONValue.array(values.map(JSONValue.number)).bytes()
        #expect(ours == Array(try JSONEncoder().encode(values)))
    }

    @Test("doubles from random bit patterns, of every exponent, are spelled as JSONEncoder spells them")
    func anyDouble() throws {
        var generator = SeededGenerator(seed: 64)
        var values: [Double] = []
        while values.count < 5_000 {
            let value = Double(bitPattern: generator.next())
            if value.isFinite { values.append(value) }
        }
        let ours = try JSONValue.array(values.map(JSONValue.number)).bytes()
        #expect(ours == Array(try JSONEncoder().encode(values)))
    }

    @Test("NaN and infinity are refused, as JSON has no such numbers", arguments: [Double.nan, .infinity, -.infinity])
    func nonFinite(_ value: Double) {
        #expect(throws: JSONValue.NonFiniteNumber.self) { try JSONValue.array([.number(value)]).bytes() }
    }
}
