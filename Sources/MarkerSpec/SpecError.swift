/// Why a marker, theme or request is not valid: the field at fault and what is wrong with it.
///
/// The edges say it in their own words: the CLI names the flag (`--distance`), the service the query
/// parameter; the problem sentence reads after either.
public struct SpecError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The part of a marker request a problem is in.
    public enum Field: String, Sendable, CaseIterable {
        case kind, distance, unit, locale, interval, theme, scale, palette, colour, labels, icon, text, title, line, badge
    }

    public let field: Field
    /// What is wrong, to follow the field's name: `must not be negative (got -5)`.
    public let problem: String

    public init(_ field: Field, _ problem: String) {
        self.field = field
        self.problem = problem
    }

    /// The field and its problem as one sentence: `distance must not be negative (got -5)`.
    public var description: String { "\(field.rawValue) \(problem)" }

    /// `text` quoted for a message, anything unprintable escaped, so that a message stays one line.
    static func quoted(_ text: String) -> String {
        "'" + text.unicodeScalars.map { $0.isASCII && $0.value >= 0x20 && $0.value < 0x7F ? String($0) : $0.escaped(asASCII: true) }.joined() + "'"
    }
}
