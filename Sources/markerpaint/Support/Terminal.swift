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
        var bytes = Array(text.utf8)[...]
        while !bytes.isEmpty {
            let written = bytes.withUnsafeBytes { Glibc.write(stream.rawValue, $0.baseAddress, $0.count) }
            if written > 0 {
                bytes = bytes.dropFirst(written)
            } else if written < 0 && errno == EINTR {
                continue
            } else {
                return
            }
        }
    }

    /// Whether standard output is a terminal a progress bar can redraw in place.
    static var outputIsInteractive: Bool { isatty(Stream.output.rawValue) == 1 }

    /// Ends the process with `code`, without unwinding.
    static func exit(_ code: Int32) -> Never {
        fflush(nil)  // every stream, so what print() buffered is not lost
        Glibc.exit(code)
    }
}
