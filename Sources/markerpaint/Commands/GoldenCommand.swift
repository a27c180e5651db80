import ArgumentParser
import Foundation
import MarkerGolden
import MarkerRender

/// Golden-image regression: verify, record and review the look.
struct GoldenCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "golden",
        abstract: "Golden-image regression: verify the look, re-record it on purpose, or review it on one sheet.",
        subcommands: [Verify.self, Record.self, Sheet.self]
    )

    /// Where the golden cases live.
    struct Location: ParsableArguments {
        @Option(help: ArgumentHelp("The goldens folder, holding cases.json and one PNG per case.", valueName: "dir"))
        var goldens = "Goldens"

        func loadSuite() throws -> GoldenSuite {
            do { return try GoldenSuite(directory: goldens) } catch { throw ValidationError(error.message) }
        }
    }

    struct Verify: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Draw every golden case and compare its decoded pixels with the golden image.",
            discussion: """
            Exits non-zero if any case differs; then the report folder holds, for each failing case,
            the expected, actual and diff images, plus index.html (side by side) and junit.xml.
            Example: markerpaint golden verify --report golden-report
            """
        )

        @OptionGroup var location: Location

        @Option(help: ArgumentHelp("Folder for the HTML report, JUnit XML and failing cases' images.", valueName: "dir"))
        var report = "golden-report"

        func run() throws {
            let suite = try location.loadSuite()
            let comparisons = try suite.verify()
            let outcomes = try GoldenReportWriter.write(comparisons, to: report)
            let failures = outcomes.filter { !$0.passed }
            for failure in failures {
                FileHandle.standardError.write(Data("FAIL \(failure.caseName): \(failure.message ?? "differs")\n".utf8))
            }
            print("\(outcomes.count - failures.count) passed, \(failures.count) failed")
            if !failures.isEmpty {
                FileHandle.standardError.write(Data("report: \(report)/\(GoldenReportWriter.htmlFileName)\n".utf8))
                throw ExitCode.failure
            }
        }
    }

    struct Record: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Re-draw every golden case and overwrite its golden image (only when the look changed on purpose).",
            discussion: "Review the result with `markerpaint golden sheet` and `git diff --stat Goldens` before committing."
        )

        @OptionGroup var location: Location

        func run() throws {
            let written = try location.loadSuite().record()
            print("recorded \(written.count) golden images in \(location.goldens)")
        }
    }

    struct Sheet: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Draw every golden image into one labelled PNG for review.",
            discussion: "Example: markerpaint golden sheet --out contact-sheet.png"
        )

        @OptionGroup var location: Location

        @Option(help: ArgumentHelp("The PNG file to write.", valueName: "file.png"))
        var out: String

        func validate() throws {
            guard out.hasSuffix(".png") else { throw ValidationError("--out must name a .png file (got \(out))") }
            try OutputFolder.check((out as NSString).deletingLastPathComponent.isEmpty ? "." : (out as NSString).deletingLastPathComponent)
        }

        func run() throws {
            let png = try location.loadSuite().contactSheet()
            let folder = (out as NSString).deletingLastPathComponent
            print(try AtomicFile.write(png, to: folder.isEmpty ? "." : folder, name: (out as NSString).lastPathComponent))
        }
    }
}
