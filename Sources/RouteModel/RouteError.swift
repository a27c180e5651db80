/// Why a route could not be read: one line naming the problem and where it is.
public struct RouteError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The line to show the user.
    public let message: String

    /// Creates an error; line breaks are folded so the message stays one line in a terminal or log.
    public init(_ message: String) {
        self.message = message.split(whereSeparator: \.isNewline).joined(separator: " ")
    }

    /// The message, so `"\(error)"` prints the line as it is.
    public var description: String { message }
}
