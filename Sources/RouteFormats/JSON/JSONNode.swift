/// A node of the tree the route and fix readers parse JSON into: unlike `JSONValue` (MarkerSpec),
/// which markerpaint writes, it keeps what reading needs: members in file order, and a line's
/// positions flat, one value instead of one per position and one per number.
///
/// Numbers also admit `NaN`, `Infinity` and `-Infinity`, which Python's `json` module writes by
/// default: reading them lets the GeoJSON reader say which coordinate is not finite instead of
/// rejecting the whole file as "not JSON".
enum JSONNode: Sendable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONNode])
    /// Members in file order; objects in GeoJSON are small, so lookups scan.
    case object([Member])
    /// An array whose every element is an array of finite-spelled numbers, such as a line's
    /// positions, kept flat: one value instead of one per position and one per number.
    case numberArrays(NumberArrays)

    /// Arrays of numbers laid end to end: array `i` is `numbers[ends[i - 1]..<ends[i]]`.
    struct NumberArrays: Sendable {
        var numbers: [Double] = []
        var ends: [Int] = []

        var count: Int { ends.count }

        /// The numbers of array `index`.
        subscript(index: Int) -> ArraySlice<Double> {
            numbers[(index == 0 ? 0 : ends[index - 1])..<ends[index]]
        }
    }

    struct Member: Sendable {
        var key: String
        var value: JSONNode
    }

    /// The elements if this is an array, whichever way it is kept.
    var elements: [JSONNode]? {
        switch self {
        case .array(let elements): elements
        case .numberArrays(let arrays): (0..<arrays.count).map { .array(arrays[$0].map(JSONNode.number)) }
        default: nil
        }
    }

    /// The value of `key` if this is an object that has it (the last one wins, as in most parsers).
    subscript(key: String) -> JSONNode? {
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
        case .array, .numberArrays: "an array"
        case .object: "an object"
        }
    }
}
