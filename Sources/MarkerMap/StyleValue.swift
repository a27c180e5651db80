public import MarkerSpec

/// A JSON value in a map style: expressions nest strings, numbers and arrays freely, which the
/// fixed shapes of `Codable` types do not model.
public indirect enum StyleValue: Sendable, Equatable {
    case string(String)
    case integer(Int)
    case number(Double)
    case bool(Bool)
    case array([StyleValue])
    case object([String: StyleValue])

    /// The value as pretty-printed JSON with sorted keys, so equal styles are equal bytes.
    public func json() throws(MapError) -> [UInt8] {
        do {
            return try jsonValue.bytes(JSONValue.Formatting(prettyPrinted: true, withoutEscapingSlashes: true))
        } catch {
            throw MapError(.encoding, "cannot encode a style value: \(error)")
        }
    }
}

extension StyleValue {
    /// The same value as a `JSONValue`.
    public var jsonValue: JSONValue {
        switch self {
        case .string(let value): .string(value)
        case .integer(let value): .integer(value)
        case .number(let value): .number(value)
        case .bool(let value): .bool(value)
        case .array(let values): .array(values.map(\.jsonValue))
        case .object(let members): .object(members.map { .init($0.key, $0.value.jsonValue) })
        }
    }
}

extension StyleValue: Encodable {
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .string(let value): try container.encode(value)
        case .integer(let value): try container.encode(value)
        case .number(let value): try container.encode(value)
        case .bool(let value): try container.encode(value)
        case .array(let values): try container.encode(values)
        case .object(let members): try container.encode(members)
        }
    }
}

extension StyleValue: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral,
    ExpressibleByBooleanLiteral, ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral
{
    public init(stringLiteral value: String) { self = .string(value) }
    public init(integerLiteral value: Int) { self = .integer(value) }
    public init(floatLiteral value: Double) { self = .number(value) }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(arrayLiteral elements: StyleValue...) { self = .array(elements) }
    public init(dictionaryLiteral elements: (String, StyleValue)...) {
        self = .object(Dictionary(elements, uniquingKeysWith: { _, last in last }))
    }
}

extension StyleValue: Decodable {
    /// Reads any JSON but null, which no style value this package writes or edits holds.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Int.self) {
            self = .integer(value)
        } else if let value = try? container.decode(Double.self) {
            self = .number(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([StyleValue].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: StyleValue].self))
        }
    }
}
