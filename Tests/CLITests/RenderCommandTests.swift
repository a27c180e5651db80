import Foundation
import MarkerRender
import MarkerPNG
import TestSupport
import Testing

@Suite("markerpaint render (the default command)")
struct RenderCommandTests {
    @Test("`markerpaint --distance 123 --end --dark` writes one PNG here and prints only its path")
    func headline() throws {
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let run = try CLI.run(["--distance", "123", "--end", "--dark"], in: folder)
        #expect(run.status == 0)
        #expect(run.stderr.isEmpty)
        let lines = run.stdout.split(separator: "\n")
        #expect(lines.count == 1)
        let files = try CLI.files(in: folder)
        #expect(files.count == 1)
        let name = try #require(files.first)
        #expect(name.wholeMatch(of: /end-123km-night@2x-[0-9a-f]{10}\.png/) != nil)
        #expect(lines.first.map(String.init) == "./\(name)")
    }

    @Test("the same command twice gives byte-identical files with the same name")
    func repeatable() throws {
        let first = try CLI.temporaryFolder()
        let second = try CLI.temporaryFolder()
        defer {
            try? FileManager.default.removeItem(at: first)
            try? FileManager.default.removeItem(at: second)
        }
        let arguments = ["--distance", "7.5", "--unit", "mi", "--scale", "3"]
        #expect(try CLI.run(arguments, in: first).status == 0)
        #expect(try CLI.run(arguments, in: second).status == 0)
        let names = try CLI.files(in: first)
        #expect(names == (try CLI.files(in: second)))
        let a = try Data(contentsOf: first.appendingPathComponent(names[0]))
        let b = try Data(contentsOf: second.appendingPathComponent(names[0]))
        #expect(a == b)
    }

    @Test(
        "theme, scale, label and palette each change the name",
        arguments: [
            ["--dark"], ["--scale", "1"], ["--distance", "124"], ["--unit", "mi"], ["--end"], ["--palette", "Goldens/palettes/brand.json"],
        ])
    func namesDiffer(change: [String]) throws {
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let palette = change.first == "--palette" ? [change[0], Repository.root.appendingPathComponent(change[1]).path] : change
        let base = try CLI.run(["--distance", "123", "--out", folder.path], in: folder)
        let changed = try CLI.run(["--distance", "123", "--out", folder.path] + palette, in: folder)
        #expect(base.status == 0 && changed.status == 0)
        #expect(base.stdout != changed.stdout)
        #expect(try CLI.files(in: folder).count == 2)
    }

    @Test(
        "labels and formats change the name as they should: --locale, --interval, --countdown, --format",
        arguments: [
            (["--distance", "7.46", "--locale", "de"], "distance-7,5km-day@2x-"),
            (["--distance", "7.46", "--locale", "de-CH"], "distance-7.5km-day@2x-"),
            (["--distance", "0.4", "--end", "--unit", "nmi", "--locale", "pt_BR.UTF-8"], "end-0,4nmi-day@2x-"),
            (["--distance", "12", "--locale", "de"], "distance-12km-day@2x-"),
            (["--distance", "10.5", "--interval", "0.5"], "distance-10.5km-day@2x-"),
            (["--distance", "45", "--countdown", "--dark"], "countdown-45km-night@2x-"),
            (["--distance", "45", "--format", "svg"], "distance-45km-day@2x-"),
            (["--distance", "45", "--format", "pdf", "--scale", "4"], "distance-45km-day@4x-"), (["--distance", "10.5"], "distance-11km-day@2x-"),
        ])
    func locale(arguments: [String], prefix: String) throws {
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let run = try CLI.run(arguments + ["--out", folder.path], in: folder)
        #expect(run.status == 0, "\(run.stderr)")
        let names = try CLI.files(in: folder)
        #expect(names.count == 1 && names[0].hasPrefix(prefix), "\(names)")
        // The file's extension is its format's, and stdout names that file.
        let format = arguments.firstIndex(of: "--format").map { arguments[$0 + 1] } ?? "png"
        #expect(names.first?.hasSuffix("." + format) == true && run.stdout.hasSuffix(names[0] + "\n"), "\(names) \(run.stdout)")
        if prefix == "distance-12km-day@2x-" {
            // The same picture, so the same bytes and name, as without --locale.
            #expect(try CLI.run(["--distance", "12", "--out", folder.path], in: folder).stdout == run.stdout)
        }
    }

    @Test("--start --distance 75 draws a start that reads the distance so far, as a stage's start counting on")
    func startCountingOn() throws {
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let run = try CLI.run(["--start", "--distance", "75", "--dark", "--out", folder.path], in: folder)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(try CLI.files(in: folder).contains { $0.hasPrefix("start-75km-night@2x-") })
    }

    @Test("--json describes the image: name, path, size, scale, anchor, sha256")
    func json() throws {
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let run = try CLI.run(["--start", "--scale", "1", "--json", "--out", folder.path], in: folder)
        #expect(run.status == 0)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        #expect(Set(object.keys) == ["name", "path", "width", "height", "scale", "anchor", "sha256"])
        let anchor = try #require(object["anchor"] as? [String: Int])
        #expect(object["scale"] as? Int == 1)
        #expect(anchor["y"] == (object["height"] as? Int).map { $0 - 9 })
        #expect(anchor["x"] == (object["width"] as? Int).map { $0 / 2 })
        let name = try #require(object["name"] as? String)
        #expect(name.hasPrefix("start-0km-day@1x-"))
        #expect((object["sha256"] as? String)?.hasPrefix(String(name.dropFirst("start-0km-day@1x-".count).prefix(10))) == true)
    }

    @Test(
        "bad input: one line on stderr naming the problem, a non-zero exit, no file",
        arguments: [
            (["--distance", "-5"], "negative"),
            (["--distance=-5"], "negative"),
            (["--distance", "nan"], "finite"),
            (["--distance", "inf"], "finite"),
            (["--distance", "abc"], "abc"),
            (["--distance", "100001"], "largest"),
            (["--distance", "1e308"], "largest"),
            (["--start", "--distance", "-5"], "negative"),
            (["--start", "--end"], "together"),
            (["--countdown", "--end", "--distance", "4"], "together"),
            (["--format", "svg", "--small"], "--small makes PNGs smaller"), (["--format", "gif"], "gif"),
            (["--scale", "0"], "--scale"),
            (["--scale", "5"], "--scale"),
            (["--scale", "99999999"], "--scale"),
            (["--scale", "2.5"], "2.5"),
            (["--unit", "furlong"], "furlong"),
            (["--distance", "7.5", "--locale", "ar"], "--locale ar writes numbers in Arabic-Indic digits"),
            (["--distance", "7.5", "--locale", "klingon"], "--locale 'klingon' is not a locale"),
            (["--distance", "7.5", "--locale", "tlh"], "not a language CLDR knows"),
            (["--distance", "10.5", "--interval", "0.05"], "--interval must be a multiple of 0.1"),
            (["--palette", "missing.json"], "missing.json"),
            (["--palette", "broken.json"], "not valid JSON"),
            (["--palette", "broken.json", "--dark"], "--palette"),
            (["--out", "afile/sub"], "cannot make folder afile/sub"),
            (["--out", "afile"], "not a folder"),
            (["--out", "/proc"], "/proc"),
            (["--bogus"], "--bogus"),
        ])
    func badInput(arguments: [String], fragment: String) throws {
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data("{ not json".utf8).write(to: folder.appendingPathComponent("broken.json"))
        try Data("x".utf8).write(to: folder.appendingPathComponent("afile"))
        let before = try CLI.files(in: folder)
        let run = try CLI.run(arguments, in: folder)
        #expect(run.status != 0)
        #expect(run.stdout.isEmpty)
        let lines = run.stderr.split(separator: "\n")
        #expect(lines.count == 1, "stderr: \(run.stderr)")
        #expect(run.stderr.contains(fragment), "stderr: \(run.stderr)")
        #expect(try CLI.files(in: folder) == before)
    }

    @Test("--help explains every option with an example")
    func help() throws {
        let run = try CLI.run(["render", "--help"], in: Repository.root)
        #expect(run.status == 0)
        for option in ["--distance", "--start", "--end", "--dark", "--day", "--scale", "--unit", "--locale", "--palette", "--out", "--json"] {
            #expect(run.stdout.contains(option), "\(option) missing from help")
        }
        #expect(run.stdout.contains("markerpaint --distance 123 --end --dark"))
    }
}

@Suite("--small")
struct SmallPNGTests {
    @Test(
        "--small writes the same pixels in fewer bytes, grey+alpha, for one marker and for a route",
        arguments: [
            ["--distance", "123", "--end", "--dark", "--scale", "3"],
            ["route", Repository.sharedRoute("route.gpx"), "--no-sprites", "--themes", "day", "--scales", "2"],
        ])
    func smallerSamePixels(arguments: [String]) throws {
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let plain = folder.appendingPathComponent("plain")
        let small = folder.appendingPathComponent("small")
        #expect(try CLI.run(arguments + ["--out", plain.path], in: folder).status == 0)
        #expect(try CLI.run(arguments + ["--out", small.path, "--small"], in: folder).status == 0)
        let plainImages = try CLI.files(in: plain).filter { $0.hasSuffix(".png") }
        let smallImages = try CLI.files(in: small).filter { $0.hasSuffix(".png") }
        #expect(!plainImages.isEmpty && plainImages.count == smallImages.count)
        var plainBytes = 0
        var smallBytes = 0
        for name in plainImages {
            // Same picture, other bytes: the name keeps what it shows and changes its hash.
            let shown = name.prefix(upTo: try #require(name.lastIndex(of: "-")))
            let twin = try #require(smallImages.first { $0.hasPrefix(shown + "-") })
            #expect(twin != name)
            let a = [UInt8](try Data(contentsOf: plain.appendingPathComponent(name)))
            let b = [UInt8](try Data(contentsOf: small.appendingPathComponent(twin)))
            #expect(a[25] == 4 && b[25] == 4, "grey+alpha")
            #expect(try PNGDecoder.decode(a) == PNGDecoder.decode(b))
            plainBytes += a.count
            smallBytes += b.count
        }
        #expect(smallBytes < plainBytes)
    }
}
