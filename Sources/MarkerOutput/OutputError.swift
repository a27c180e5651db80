public import MarkerMap

/// Why a batch could not be written: a folder that is not ours to change, a file that cannot be
/// written, map data that cannot be made, or a step of publishing that failed.
public struct OutputError: Error, Sendable, Equatable, CustomStringConvertible {
    public let message: String
    /// The map-data failure behind this one, if any, so an edge can suggest what to change.
    public let mapError: MapError?

    public init(_ message: String, mapError: MapError? = nil) {
        self.message = message
        self.mapError = mapError
    }

    public var description: String { message }
}
