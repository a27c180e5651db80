import MarkerRender

/// Why a golden run could not read its cases, draw them, or write its report.
public struct GoldenError: Error, Sendable, Equatable, CustomStringConvertible {
    public let message: String

    public init(_ message: String) { self.message = message }

    public var description: String { message }
}

extension GoldenError {
    /// Runs a drawing, encoding or decoding step, saying a Cairo, Pango or codec failure as the
    /// golden run's own.
    static func drawing<Value>(_ step: () throws -> Value) throws(GoldenError) -> Value {
        do {
            return try step()
        } catch let error as RenderError {
            throw GoldenError(error.message)
        } catch {
            throw GoldenError("\(error)")
        }
    }
}
