/// Why map data (image set, sprite sheet, GeoJSON, style layer) could not be made.
public struct MapError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What kind of failure, so an edge can say what the user may do about it.
    public enum Reason: Sendable, Equatable {
        /// No theme, or a scale missing or out of range.
        case badChoice
        /// More images than one GPU texture holds.
        case spriteTooLarge
        /// An image could not be read, decoded or encoded.
        case image
        /// A document could not be encoded.
        case encoding
    }

    public let reason: Reason
    public let message: String

    public init(_ reason: Reason, _ message: String) {
        self.reason = reason
        self.message = message
    }

    public var description: String { message }
}
