/// Why an offline pack's style or tiles could not be made, in one sentence a user reads.
public struct OfflineError: Error, Sendable, Equatable, CustomStringConvertible {
    public let message: String

    public init(_ message: String) {
        self.message = message
    }

    public var description: String { message }
}
