/// Why a PNG, zlib or gzip stream could not be written or read, in one line a user can act on.
public struct PNGError: Error, Sendable, Equatable, CustomStringConvertible {
    public let message: String

    public init(_ message: String) { self.message = message }

    public var description: String { message }
}
