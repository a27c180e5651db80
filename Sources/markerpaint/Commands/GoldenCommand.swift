import ArgumentParser
import CommandSupport
import MarkerFiles
import MarkerGolden
import MarkerRender
import MarkerSpec
import SystemPackage

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

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
            do { return try GoldenSuite(directory: FilePath(goldens)) } catch { throw ValidationError(error.message) }
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
            let outcomes = try GoldenReportWriter.write(comparisons, to: FilePath(report))
            let failures = outcomes.filter { !$0.passed }
            for failure in failures {
                Terminal.write("FAIL \(failure.caseName): \(failure.message ?? "differs")\n", to: .error)
            }
            print("\(outcomes.count - failures.count) passed, \(failures.count) failed")
            if !failures.isEmpty {
                Terminal.write("report: \(FilePath(report).appending(GoldenReportWriter.htmlFileName))\n", to: .error)
                throw ExitCode.failure
            }
        }
    }

    struct Record: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract:
                "Re-draw every golden case and overwrite its golden image (only when the look changed on purpose), or with --missing only new cases.",
            discussion: "Review the result with `markerpaint golden sheet` and `git diff --stat Goldens` before committing."
        )

        @OptionGroup var location: Location

        @Flag(help: "Record only the cases that have no golden image yet (new cases), leaving every other golden file as it is.")
        var missing = false

        func run() throws {
            let written = try location.loadSuite().record(onlyMissing: missing)
            print("recorded \(written.count) golden images in \(location.goldens)")
        }
    }

    struct Sheet: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Draw every golden image into one labelled PNG for review.",
            discussion: "Example: markerpaint golden sheet --out contact-sheet.png"
        )

        @OptionGroup var location: Location

        @Option(help: ArgumentHelp("The PNG file to write; its folder is made if missing.", valueName: "file.png"))
        var out: String

        func validate() throws {
            guard let name = FilePath(out).lastComponent?.string, name.hasSuffix(".png"), name != ".png" else {
                throw ValidationError("--out must name a .png file (got \(out))")
            }
        }

        func run() throws {
            let png = try location.loadSuite().contactSheet()
            let file = FilePath(out)
            let folder = try Folder.create(file.removingLastComponent().isEmpty ? "." : file.removingLastComponent())
            print(try folder.write(png, as: file.lastComponent?.string ?? out))
        }
    }
}
