import Foundation
import TestSupport
import Testing

/// `--out` only ever replaces or removes what markerpaint wrote, takes any path a shell can give,
/// keeps symlinks, and makes missing folders.
@Suite("markerpaint route --out")
struct OutputFolderTests {
    static let route = Repository.sharedRoutes.appendingPathComponent("route.gpx").path

    /// Every file under `folder` (recursively, hidden ones included) and its bytes.
    static func tree(_ folder: URL) throws -> [String: Data] {
        var files: [String: Data] = [:]
        let enumerator = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: [.isRegularFileKey])
        while let url = enumerator?.nextObject() as? URL {
            guard try url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile == true else { continue }
            files[String(url.path.dropFirst(folder.path.count))] = try Data(contentsOf: url)
        }
        return files
    }

    struct Foreign: Sendable, CustomTestStringConvertible {
        var testDescription: String
        /// Files to put in the folder first, by relative path.
        var files: [String: String]
        /// Run markerpaint into the folder once before adding `files`.
        var afterARun = false
    }

    static let foreignFolders: [Foreign] = [
        Foreign(testDescription: "a desktop", files: ["notes.txt": "my notes", "photos/cat.jpg": "meow"]),
        Foreign(testDescription: "one hidden file", files: [".bashrc": "alias ll='ls -l'"]),
        Foreign(testDescription: "another program's manifest.json", files: ["manifest.json": #"{"name": "my app"}"#]),
        Foreign(testDescription: "a user's file in a markerpaint output", files: ["README.txt": "these are my markers"], afterARun: true),
        Foreign(testDescription: "a PNG named like a marker whose hash is not its bytes'", files: ["end-9km-day@2x-0123456789.png": "not ours"]),
        Foreign(testDescription: "a folder named like a staging folder, holding a folder", files: [".markerpaint-staging-1-2/keep/me.txt": "mine"]),
        Foreign(testDescription: "a folder named almost like a staging folder", files: [".markerpaint-staging-old/me.txt": "mine"]),
    ]

    @Test("a folder holding anything markerpaint did not write is refused and survives byte for byte", arguments: foreignFolders)
    func foreignFolderSurvives(_ foreign: Foreign) throws {
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let out = folder.appendingPathComponent("Desktop")
        if foreign.afterARun {
            #expect(try CLI.run(["route", Self.route, "--out", "Desktop"], in: folder).status == 0)
        }
        try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
        for (path, text) in foreign.files {
            let url = out.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: url)
        }
        let before = try Self.tree(out)
        let run = try CLI.run(["route", Self.route, "--out", "Desktop"], in: folder)
        #expect(run.status == 1)
        #expect(run.stdout.isEmpty)
        #expect(run.stderr.split(separator: "\n").count == 1, "\(run.stderr)")
        #expect(run.stderr.contains("markerpaint did not write"), "\(run.stderr)")
        #expect(try Self.tree(out) == before)
    }

    @Test("a file markerpaint wrote and the user changed is not replaced")
    func changedFileIsKept() throws {
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(try CLI.run(["route", Self.route, "--out", "out"], in: folder).status == 0)
        let geojson = folder.appendingPathComponent("out/markers.geojson")
        try Data("{\"my\": \"edits\"}".utf8).write(to: geojson)
        let before = try Self.tree(folder.appendingPathComponent("out"))
        let run = try CLI.run(["route", Self.route, "--out", "out"], in: folder)
        #expect(run.status == 1)
        #expect(run.stderr.contains("markers.geojson was changed after markerpaint wrote it"), "\(run.stderr)")
        #expect(try Self.tree(folder.appendingPathComponent("out")) == before)
    }

    @Test("what a killed run left (a staging folder, temporary files, images not yet recorded) is recognised and cleared")
    func leftoversOfAKilledRun() throws {
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let out = folder.appendingPathComponent("out")
        #expect(try CLI.run(["route", Self.route, "--out", "out", "--themes", "day"], in: folder).status == 0)
        // A night run killed while moving its files in: one image in place but not yet in the manifest,
        // a temporary manifest, and its staging folder. Process 2^22 + 1 cannot be running.
        #expect(try CLI.run(["route", Self.route, "--out", "night", "--themes", "night"], in: folder).status == 0)
        let nightImage = try #require(try CLI.files(in: folder.appendingPathComponent("night")).first { $0.hasPrefix("combined-") })
        try FileManager.default.copyItem(at: folder.appendingPathComponent("night/\(nightImage)"), to: out.appendingPathComponent(nightImage))
        try Data("{".utf8).write(to: out.appendingPathComponent(".manifest.json.4194305.12345.tmp"))
        let staging = out.appendingPathComponent(".markerpaint-staging-4194305-777")
        try FileManager.default.createDirectory(at: staging, withIntermediateDirectories: true)
        try Data("half".utf8).write(to: staging.appendingPathComponent("distance-1km-night@1x-abc.png"))

        let run = try CLI.run(["route", Self.route, "--out", "out", "--themes", "day"], in: folder)
        #expect(run.status == 0, "\(run.stderr)")
        let files = try CLI.files(in: out)
        #expect(!files.contains { $0.hasPrefix(".") }, "\(files)")
        #expect(!files.contains(nightImage), "an image no manifest lists is removed once the run publishes")
    }

    @Test("--out takes any path a shell gives", arguments: ["o", "o/", "./o", "ü", "a b", "deep/er/still", "."])
    func pathForms(_ out: String) throws {
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let work = folder.appendingPathComponent("work")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        for round in 1...2 {
            let run = try CLI.run(["route", Self.route, "--out", out], in: work)
            #expect(run.status == 0, "round \(round): \(run.stderr)")
            #expect(run.stdout.contains(round == 1 ? "reused 0" : "rendered 0"), "\(run.stdout)")
        }
        let written = work.appendingPathComponent(out)
        #expect(FileManager.default.fileExists(atPath: written.appendingPathComponent("manifest.json").path))
        #expect(FileManager.default.fileExists(atPath: written.appendingPathComponent("markers.geojson").path))
    }

    @Test("a folder the run makes comes whole, with the umask's permissions and nothing beside it; one the user made stays that folder")
    func madeFolderComesWhole() throws {
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        // Under umask 027 a folder markerpaint makes reads rwxr-x---, as mkdir makes it, though it arrives by rename.
        let shell = URL(fileURLWithPath: "/bin/sh")
        let made = try CLI.run(
            ["-c", #"umask 027 && exec "$0" "$@""#, CLI.executable.path, "route", Self.route, "--out", "made"], in: folder, executable: shell)
        #expect(made.status == 0, "\(made.stderr)")
        let out = folder.appendingPathComponent("made")
        let attributes = try FileManager.default.attributesOfItem(atPath: out.path)
        #expect((attributes[.posixPermissions] as? Int) == 0o750)
        #expect(try CLI.files(in: folder) == ["made"], "the run left something beside its folder")
        let manifest = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: out.appendingPathComponent("manifest.json"))) as? [String: Any])
        let recorded = try #require(manifest["files"] as? [String: String])
        #expect(Set(recorded.keys).union(["manifest.json"]) == Set(try CLI.files(in: out)), "exactly the recorded files, nothing hidden")

        // An empty folder the user made is filled, never replaced: the same folder, its own permissions.
        let own = folder.appendingPathComponent("own")
        try FileManager.default.createDirectory(at: own, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
        let before = try FileManager.default.attributesOfItem(atPath: own.path)[.systemFileNumber] as? Int
        let filled = try CLI.run(["route", Self.route, "--out", "own"], in: folder)
        #expect(filled.status == 0, "\(filled.stderr)")
        let after = try FileManager.default.attributesOfItem(atPath: own.path)
        #expect(after[.systemFileNumber] as? Int == before && (after[.posixPermissions] as? Int) == 0o700)
        #expect(try CLI.files(in: own).contains("manifest.json"))
    }

    @Test("a symlinked --out keeps its link and updates its target")
    func symlinkIsKept() throws {
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("real"), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: folder.appendingPathComponent("link").path, withDestinationPath: "real")
        for themes in ["day", "night"] {
            let run = try CLI.run(["route", Self.route, "--out", "link", "--themes", themes], in: folder)
            #expect(run.status == 0, "\(run.stderr)")
        }
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: folder.appendingPathComponent("link").path) == "real")
        let files = try CLI.files(in: folder.appendingPathComponent("real"))
        #expect(files.contains("manifest.json") && files.contains { $0.contains("-night@") } && !files.contains { $0.contains("-day@") })
    }

    @Test("an --out that is a file is refused in one line and left alone")
    func outIsAFile() throws {
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data("keep me".utf8).write(to: folder.appendingPathComponent("notes.txt"))
        let run = try CLI.run(["route", Self.route, "--out", "notes.txt"], in: folder)
        #expect(run.status == 1)
        #expect(run.stderr.split(separator: "\n").count == 1 && run.stderr.contains("not a folder"), "\(run.stderr)")
        #expect(try Data(contentsOf: folder.appendingPathComponent("notes.txt")) == Data("keep me".utf8))
    }

    @Test(
        "every command makes its missing output folders, with parents",
        arguments: [
            (["--start", "--scale", "3", "--out", "icons"], "icons"),
            (["--distance", "5", "--out", "a/b/c"], "a/b/c"),
            (["route", OutputFolderTests.route, "--out", "x/y/z"], "x/y/z/manifest.json"),
            (
                ["golden", "sheet", "--goldens", Repository.root.appendingPathComponent("Goldens").path, "--out", "review/sheets/all.png"],
                "review/sheets/all.png"
            ),
        ])
    func missingFoldersAreMade(arguments: [String], expected: String) throws {
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let run = try CLI.run(arguments, in: folder)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent(expected).path))
    }
}
