import ArgumentParser
import CommandSupport

/// `markerpaint`: draws map distance markers as PNGs with content-hashed names.
@main
struct MarkerPaint: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "markerpaint",
        abstract: "Draw map distance markers (pills reading 10km, start, end) as PNGs with content-hashed names.",
        discussion: """
            With no subcommand, draws one marker:
              markerpaint --distance 123 --end --dark
            writes ./end-123km-night@2x-<hash>.png and prints its path.
            """,
        subcommands: [RenderCommand.self, RouteCommand.self, ProgressCommand.self, SetCommand.self, GoldenCommand.self, ServeCommand.self],
        defaultSubcommand: RenderCommand.self
    )

    /// Parses and runs, reporting any failure as one line on stderr and a non-zero exit.
    static func main() async { await runReportingFailure(as: "markerpaint") }
}
