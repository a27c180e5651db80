/// Why a marker could not be drawn, encoded or written, in one line a user can act on.
public struct RenderError: Error, Sendable, Equatable, CustomStringConvertible {
    public let message: String

    public init(_ message: String) { self.message = message }

    public var description: String { message }
}
