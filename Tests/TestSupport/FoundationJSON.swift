public import Foundation
import MarkerSpec

/// Foundation's JSON, the reference markerpaint's own JSON writer must match byte for byte.
public enum FoundationJSON {
    /// `bytes` read by `JSONDecoder` and written again by `JSONEncoder` with `formatting` (always
    /// with `.sortedKeys`). `JSONValue`'s `Codable` conformance carries the value between them, not
    /// the writer under test.
    public static func reencoded(_ bytes: [UInt8], formatting: JSONEncoder.OutputFormatting) throws -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = formatting.union(.sortedKeys)
        return Array(try encoder.encode(try JSONDecoder().decode(JSONValue.self, from: Data(bytes))))
    }
}
