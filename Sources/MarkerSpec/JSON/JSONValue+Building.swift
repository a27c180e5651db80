/// Building and reading values: literals, objects from dictionaries (written with sorted keys, so
/// their order never matters), members by key, and `Codable` for documents a user hands in (a
/// basemap's MapLibre style) or a library writes (a tile source's metadata).
extension JSONValue {
    /// An object from a dictionary.
    public static func object(_ members: [String: JSONValue]) -> JSONValue {
        .object(members.map { Member($0.key, $0.value) })
    }

    /// The value of `key` if this is an object that has it (the last such member). Set on an
    /// object, it replaces that member or adds one; nil removes it.
    public subscript(key: String) -> JSONValue? {
        get {
            guard case .object(let members) = self else { return nil }
            return members.last { $0.key == key }?.value
        }
        set {
            guard case .object(var members) = self else { return }
            members.removeAll { $0.key == key }
            if let newValue { members.append(Member(key, newValue)) }
            self = .object(members)
        }
    }

    /// The members by key if this is an object.
    public var objectMembers: [String: JSONValue]? {
        guard case .object(let members) = self else { return nil }
        return Dictionary(members.map { ($0.key, $0.value) }, uniquingKeysWith: { _, last in last })
    }

    /// The elements if this is an array.
    public var arrayElements: [JSONValue]? {
        guard case .array(let elements) = self else { return nil }
        return elements
    }
}

extension JSONValue: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral, ExpressibleByBooleanLiteral,
    ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral
{
    public init(stringLiteral value: String) { self = .string(value) }
    public init(integerLiteral value: Int) { self = .integer(value) }
    public init(floatLiteral value: Double) { self = .number(value) }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self = .object(Dictionary(elements, uniquingKeysWith: { _, last in last }))
    }
}

extension JSONValue: Codable {
    /// Reads any JSON: a whole number as an integer, others as numbers.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Int.self) {
            self = .integer(value)
        } else if let value = try? container.decode(Double.self) {
            self = .number(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([JSONValue].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: JSONValue].self))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .string(let value): try container.encode(value)
        case .integer(let value): try container.encode(value)
        case .number(let value): try container.encode(value)
        case .bool(let value): try container.encode(value)
        case .null: try container.encodeNil()
        case .array(let values): try container.encode(values)
        case .object(let members):
            try container.encode(Dictionary(members.map { ($0.key, $0.value) }, uniquingKeysWith: { _, last in last }))
        }
    }
}
