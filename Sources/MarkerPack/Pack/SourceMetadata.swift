import FoundationEssentials

/// A source's JSON metadata, read for what a pack repeats of it: attribution, vector layers.
struct SourceMetadata {
    private let members: [String: JSONTree]

    /// Reads `bytes` as a JSON object; anything else reads as empty.
    init(_ bytes: [UInt8]) {
        members = (try? JSONDecoder().decode([String: JSONTree].self, from: Data(bytes))) ?? [:]
    }

    var attribution: String? {
        if case .string(let text) = members["attribution"] { return text }
        return nil
    }

    /// The `vector_layers` array as JSON, if there is one.
    var vectorLayers: String? {
        guard let layers = members["vector_layers"], case .array = layers, let data = try? JSONEncoder().encode(layers) else { return nil }
        return String(decoding: data, as: UTF8.self)
    }
}

/// Any JSON value, decoded and encoded as it was.
enum JSONTree: Codable, Equatable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONTree])
    case object([String: JSONTree])

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Double.self) {
            self = .number(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([JSONTree].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: JSONTree].self))
        }
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let value): try container.encode(value)
        case .number(let value): try container.encode(value)
        case .string(let value): try container.encode(value)
        case .array(let value): try container.encode(value)
        case .object(let value): try container.encode(value)
        }
    }
}
