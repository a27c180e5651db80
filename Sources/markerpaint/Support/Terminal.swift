import MarkerFiles

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Unbuffered writes to the standard streams, for lines that must appear now (a progress bar, the
/// port a server listens on, an error before exit), not when stdout's buffer is next flushed.
enum Terminal {
    enum Stream: Int32 {
        case output = 1
        case error = 2
    }

    /// Writes all of `text`, retrying short writes and interrupts; a closed stream loses the text.
    static func write(_ text: String, to stream: Stream) {
        DescriptorOutput.writeAll(Array(text.utf8), to: stream.rawValue)
    }

    /// Whether standard output is a terminal a progress bar can redraw in place.
    static var outputIsInteractive: Bool { isatty(Stream.output.rawValue) == 1 }

    /// Ends the process with `code`, without unwinding.
    static func exit(_ code: Int32) -> Never {
        fflush(nil)  // every stream, so what print() buffered is not lost
        Glibc.exit(code)
    }
}
