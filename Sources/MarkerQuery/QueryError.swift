public import MarkerSpec

/// Why a query could not be read: the parameter at fault, if one is, and a sentence naming it.
public struct QueryError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The query parameter (or `body`) at fault, if one is.
    public let parameter: String?
    /// One line a person can act on; it names the parameter.
    public let message: String

    public init(parameter: String?, message: String) {
        self.parameter = parameter
        self.message = message
    }

    /// A parameter that is missing, malformed or out of range.
    public static func badParameter(_ name: String, _ problem: String) -> QueryError {
        QueryError(parameter: name, message: "parameter \"\(name)\": \(problem)")
    }

    /// A marker rule a query broke, named by the parameter that carries the field.
    public init(_ error: SpecError) {
        self = .badParameter(error.field.rawValue, error.problem)
    }

    public var description: String { message }
}
