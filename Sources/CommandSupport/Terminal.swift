public import ArgumentParser
import Dispatch
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
        #if canImport(Glibc)
        Glibc.exit(code)
        #elseif canImport(Musl)
        Musl.exit(code)
        #elseif canImport(Darwin)
        Darwin.exit(code)
        #endif
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
        } catch {
            reportFailure(error, as: name)
        }
    }
}

extension ParsableCommand {
    /// Parses the command line and runs the command it names, as `runReportingFailure` does, from a
    /// synchronous `main`: a command that is not async runs on the main thread and never starts
    /// Swift's concurrency runtime, whose thread pool and Dispatch's manager thread would cost one
    /// marker's run more than its drawing; an async one runs as a task while the main thread serves
    /// Dispatch's main queue.
    public static func runReportingFailureOnMainThread(as name: String, arguments: [String]? = nil) -> Never {
        do {
            var command = try parseAsRoot(arguments)
            guard let asyncCommand = command as? any AsyncParsableCommand else {
                try command.run()
                Terminal.exit(0)
            }
            nonisolated(unsafe) var started = asyncCommand
            Task {
                do {
                    try await started.run()
                    Terminal.exit(0)
                } catch {
                    reportFailure(error, as: name)
                }
            }
            dispatchMain()
        } catch {
            reportFailure(error, as: name)
        }
    }

    /// Parses `arguments` as this command alone (one with no subcommands) and runs it on the main
    /// thread, reporting a failure as `runReportingFailure` does. Knowing the command's type, it asks
    /// no dynamic cast of the runtime, which on a type that does not conform scans every
    /// conformance the program has.
    public static func runAloneReportingFailure(as name: String, arguments: [String]) -> Never {
        do {
            var command = try parse(arguments)
            try command.run()
            Terminal.exit(0)
        } catch {
            reportFailure(error, as: name)
        }
    }

    /// Reports `error` as one line, `<name>: <what is wrong>`, on stderr (help and version on
    /// stdout) and ends the process with its exit code.
    static func reportFailure(_ error: any Error, as name: String) -> Never {
        if let exit = error as? ExitCode {
            // Already reported by the command; only the status is left to give.
            Terminal.exit(exit.rawValue)
        }
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
