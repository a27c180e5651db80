package import MarkerPNG

/// Why Cairo, Pango or the PNG codec could not draw, encode or decode a marker, in one line a user
/// can act on.
public struct RenderError: Error, Sendable, Equatable, CustomStringConvertible {
    public let message: String

    public init(_ message: String) { self.message = message }

    public var description: String { message }
}

extension RenderError {
    /// The PNG codec's refusal, as drawing reports it.
    package init(_ error: PNGError) { self.init(error.message) }
}
