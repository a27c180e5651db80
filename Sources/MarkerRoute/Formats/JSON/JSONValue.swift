/// A parsed JSON value.
///
/// Numbers also admit `NaN`, `Infinity` and `-Infinity`, which Python's `json` module writes by
/// default: reading them lets the GeoJSON reader say which coordinate is not finite instead of
/// rejecting the whole file as "not JSON".
enum JSONValue: Sendable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    /// Members in file order; objects in GeoJSON are small, so lookups scan.
    case object([Member])

    struct Member: Sendable {
        var key: String
        var value: JSONValue
    }

    /// The value of `key` if this is an object that has it (the last one wins, as in most parsers).
    subscript(key: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        return members.last { $0.key == key }?.value
    }

    /// What kind of value this is, for messages ("a string", "an array").
    var kindDescription: String {
        switch self {
        case .null: "null"
        case .bool: "a boolean"
        case .number: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }
}
