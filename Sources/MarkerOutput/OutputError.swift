public import MarkerFiles
public import MarkerMap
public import MarkerRender

/// Why a batch could not be written: a folder that is not ours to change, a file that cannot be
/// written, map data that cannot be made, a picture that cannot be drawn, or a step of publishing
/// that failed. The error behind it travels with it, typed, so an edge can say what to change.
public struct OutputError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The error behind an output error, as its own stage named it.
    public enum Cause: Sendable, Equatable {
        case map(MapError)
        case render(RenderError)
        case file(FileError)
    }

    public let message: String
    public let cause: Cause?

    public init(_ message: String, cause: Cause? = nil) {
        self.message = message
        self.cause = cause
    }

    public init(_ message: String, mapError: MapError) {
        self.init(message, cause: .map(mapError))
    }

    /// `error` as the output's: itself if it is one, its own stage's error kept as the cause if it
    /// is one of ours, otherwise its description.
    public init(carrying error: any Error) {
        switch error {
        case let error as OutputError: self = error
        case let error as MapError: self.init(error.message, cause: .map(error))
        case let error as RenderError: self.init(error.message, cause: .render(error))
        case let error as FileError: self.init(error.message, cause: .file(error))
        default: self.init("\(error)")
        }
    }

    /// The map-data failure behind this one, if that is what it is.
    public var mapError: MapError? {
        if case .map(let error) = cause { error } else { nil }
    }

    public var description: String { message }
}
