import Foundation
import TestSupport
import Testing

@Suite("markerpaint golden")
struct GoldenCommandTests {
    @Test("verify passes on the repository's goldens and writes a JUnit report")
    func verifyPasses() throws {
        let report = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: report) }
        let run = try CLI.run(["golden", "verify", "--goldens", "Goldens", "--report", report.path], in: Repository.root)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains(" passed, 0 failed"))
        #expect(try CLI.files(in: report) == ["index.html", "junit.xml"])
    }

    @Test("verify fails on a changed golden, names it, and leaves the evidence")
    func verifyFails() throws {
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let goldens = try Self.goldens(in: folder, cases: #"{"kind": "start", "distance": 0, "unit": "km", "theme": "night", "scale": 2}"#)
        #expect(try CLI.run(["golden", "record", "--goldens", goldens.path], in: folder).status == 0)
        let wrong = try CLI.run(["--start", "--scale", "2", "--out", folder.path], in: folder)
        try FileManager.default.removeItem(at: goldens.appendingPathComponent("start-0km-night@2x.png"))
        try FileManager.default.moveItem(
            atPath: folder.appendingPathComponent(String(wrong.stdout.dropFirst(folder.path.count + 1).dropLast())).path,
            toPath: goldens.appendingPathComponent("start-0km-night@2x.png").path)
        let report = folder.appendingPathComponent("report")
        let run = try CLI.run(["golden", "verify", "--goldens", goldens.path, "--report", report.path], in: folder)
        #expect(run.status != 0)
        #expect(run.stderr.contains("start-0km-night@2x"))
        #expect(try CLI.files(in: report).contains("start-0km-night@2x.diff.png"))
    }

    @Test("record --missing draws only the cases without a golden image and leaves every other file as it was")
    func recordMissing() throws {
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let goldens = try Self.goldens(
            in: folder,
            cases: #"{"kind": "start", "distance": 0, "unit": "km", "theme": "night", "scale": 2}"#,
            #"{"kind": "distance", "distance": 7.5, "unit": "nmi", "theme": "day", "scale": 1}"#)
        // Not the start marker's picture: a file --missing must not touch, whatever it holds.
        let kept = Data("kept as it was".utf8)
        try kept.write(to: goldens.appendingPathComponent("start-0km-night@2x.png"))
        let run = try CLI.run(["golden", "record", "--missing", "--goldens", goldens.path], in: folder)
        #expect(run.status != 0, "the contact sheet cannot be made from a file that is not a PNG")
        #expect(try Data(contentsOf: goldens.appendingPathComponent("start-0km-night@2x.png")) == kept)
        #expect(FileManager.default.fileExists(atPath: goldens.appendingPathComponent("distance-7.5nmi-day@1x.png").path))

        try FileManager.default.removeItem(at: goldens.appendingPathComponent("start-0km-night@2x.png"))
        #expect(try CLI.run(["golden", "record", "--missing", "--goldens", goldens.path], in: folder).status == 0)
        let recorded = try Data(contentsOf: goldens.appendingPathComponent("distance-7.5nmi-day@1x.png"))
        #expect(try CLI.run(["golden", "record", "--missing", "--goldens", goldens.path], in: folder).stdout.contains("recorded 0 golden images"))
        #expect(try Data(contentsOf: goldens.appendingPathComponent("distance-7.5nmi-day@1x.png")) == recorded)
        #expect(
            try CLI.run(["golden", "verify", "--goldens", goldens.path, "--report", folder.appendingPathComponent("report").path], in: folder).status
                == 0)
    }

    @Test("sheet writes one PNG of every case")
    func sheet() throws {
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let out = folder.appendingPathComponent("sheet.png").path
        let run = try CLI.run(["golden", "sheet", "--goldens", "Goldens", "--out", out], in: Repository.root)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(try CLI.files(in: folder) == ["sheet.png"])
    }

    /// A goldens folder in `folder` whose cases.json lists `cases` (JSON objects) and nothing else.
    static func goldens(in folder: URL, cases: String...) throws -> URL {
        let goldens = folder.appendingPathComponent("goldens")
        try FileManager.default.createDirectory(at: goldens, withIntermediateDirectories: true)
        try Data(#"{"cases": [\#(cases.joined(separator: ", "))]}"#.utf8).write(to: goldens.appendingPathComponent("cases.json"))
        return goldens
    }
}
