/// Why a file or folder could not be read or written, in one line naming the path.
public struct FileError: Error, Sendable, Equatable, CustomStringConvertible {
    public let message: String

    public init(_ message: String) { self.message = message }

    public var description: String { message }
}
