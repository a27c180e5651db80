public import ArgumentParser
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
public enum Terminal {
    public enum Stream: Int32, Sendable {
        case output = 1
        case error = 2
    }

    /// Writes all of `text`, retrying short writes and interrupts; a closed stream loses the text.
    public static func write(_ text: String, to stream: Stream) {
        DescriptorOutput.writeAll(Array(text.utf8), to: stream.rawValue)
    }

    /// Whether standard output is a terminal a progress bar can redraw in place.
    public static var outputIsInteractive: Bool { isatty(Stream.output.rawValue) == 1 }

    /// Ends the process with `code`, without unwinding.
    public static func exit(_ code: Int32) -> Never {
        fflush(nil)  // every stream, so what print() buffered is not lost
        Glibc.exit(code)
    }
}

extension AsyncParsableCommand {
    /// Parses the command line and runs the command it names, reporting any failure as one line,
    /// `<name>: <what is wrong>`, on stderr, and a non-zero exit.
    public static func runReportingFailure(as name: String) async {
        do {
            var command = try parseAsRoot()
            if var asyncCommand = command as? any AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch let exit as ExitCode {
            // Already reported by the command; only the status is left to give.
            Terminal.exit(exit.rawValue)
        } catch {
            let code = exitCode(for: error)
            if code == .success {
                print(fullMessage(for: error))
                Terminal.exit(0)
            }
            let message = message(for: error).split(separator: "\n").first.map(String.init) ?? "\(error)"
            Terminal.write("\(name): \(message)\n", to: .error)
            Terminal.exit(code.rawValue)
        }
    }
}
