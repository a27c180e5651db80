import ArgumentParser
import CommandSupport

/// `markerpaint`: draws map distance markers as PNGs with content-hashed names.
@main
struct MarkerPaint: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "markerpaint",
        abstract: "Draw map distance markers (pills reading 10km, start, end) as PNGs with content-hashed names.",
        discussion: """
            With no subcommand, draws one marker:
              markerpaint --distance 123 --end --dark
            writes ./end-123km-night@2x-<hash>.png and prints its path.
            """,
        subcommands: [RenderCommand.self, PinCommand.self, CalloutCommand.self, RouteCommand.self, ProgressCommand.self, SetCommand.self, GoldenCommand.self, ServeCommand.self],
        defaultSubcommand: RenderCommand.self
    )

    /// Parses and runs, reporting any failure as one line on stderr and a non-zero exit. Synchronous:
    /// drawing one marker starts no thread; the async subcommands (route, serve …) start the runtime.
    static func main() {
        let arguments = Array(CommandLine.arguments.dropFirst())
        if drawsOneMarker(arguments) {
            // The common case, read as the one command it is: building the whole tree of commands
            // and options first (every subcommand's, by reflection) cost a tenth of a marker's run.
            RenderCommand.runAloneReportingFailure(as: "markerpaint", arguments: arguments)
        }
        runReportingFailureOnMainThread(as: "markerpaint", arguments: arguments)
    }

    /// Whether `arguments` name no subcommand and ask for no help, so that they are the default
    /// subcommand's (`render`) own.
    static func drawsOneMarker(_ arguments: [String]) -> Bool {
        var subcommands: Set<String> = ["help"]
        for subcommand in configuration.subcommands {
            if let name = subcommand.configuration.commandName { subcommands.insert(name) }
        }
        let asksForHelp: Set<String> = ["-h", "--help", "-help", "--version", "--experimental-dump-help", "--generate-completion-script"]
        if let first = arguments.first, subcommands.contains(first) { return false }
        return !arguments.contains { asksForHelp.contains($0) || $0.hasPrefix("--generate-completion-script") }
    }
}
