import FoundationEssentials
import MarkerSpec

/// A source's JSON metadata, read for what a pack repeats of it: attribution, vector layers.
struct SourceMetadata {
    private let members: [String: JSONValue]

    /// Reads `bytes` as a JSON object; anything else reads as empty.
    init(_ bytes: [UInt8]) {
        members = (try? JSONDecoder().decode([String: JSONValue].self, from: Data(bytes))) ?? [:]
    }

    var attribution: String? {
        if case .string(let text) = members["attribution"] { return text }
        return nil
    }

    /// The `vector_layers` array as JSON, if there is one, with its keys sorted so the same layers
    /// give the same bytes (and the pack the same name) on every run.
    var vectorLayers: String? {
        guard let layers = members["vector_layers"], case .array = layers, let data = try? layers.bytes() else { return nil }
        return String(decoding: data, as: UTF8.self)
    }
}
