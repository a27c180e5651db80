import Foundation
import TestSupport
import Testing

@Suite("markerpaint pin")
struct PinCommandTests {
    @Test("`markerpaint pin --icon water` writes one PNG here and prints its path; --json says where the tip is")
    func headline() throws {
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let run = try CLI.run(["pin", "--icon", "water"], in: folder)
        #expect(run.status == 0 && run.stderr.isEmpty)
        let name = try #require(try CLI.files(in: folder).first)
        #expect(name.wholeMatch(of: /pin-water-day@2x-[0-9a-f]{10}\.png/) != nil)
        #expect(run.stdout == "./\(name)\n")

        let json = try CLI.run(["pin", "--text", "12", "--dark", "--scale", "1.5", "--json", "--out", "pins"], in: folder)
        #expect(json.status == 0)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        #expect(Set(object.keys) == ["name", "path", "width", "height", "scale", "anchor", "sha256"])
        #expect((object["name"] as? String)?.hasPrefix("pin-text-12-night@1.5x-") == true)
        #expect(object["width"] as? Int == 51 && object["height"] as? Int == 63 && object["scale"] as? Double == 1.5)
        let anchor = try #require(object["anchor"] as? [String: Double])
        #expect(anchor == ["x": 25.5, "y": 54])
    }

    @Test("SVG and PDF as for a marker", arguments: ["svg", "pdf"])
    func documents(format: String) throws {
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let run = try CLI.run(["pin", "--icon", "danger", "--format", format], in: folder)
        #expect(run.status == 0)
        #expect(try CLI.files(in: folder).first?.hasSuffix(".\(format)") == true)
    }

    @Test(
        "bad input: one line on stderr naming the problem, exit 64, nothing written",
        arguments: [
            (["pin"], "say what the pin shows: --icon NAME, --icon-file ICON.svg or --text ABC"),
            (["pin", "--icon", "tree"], "--icon 'tree' is not one of water, food, cafe, summit, viewpoint, camp, shelter, danger, info, parking, toilets, repair"),
            (["pin", "--text", "ABCD"], "--text must be 1 to 3 characters (got 4: 'ABCD')"),
            (["pin", "--icon", "water", "--text", "A"], "--icon, --icon-file and --text each say what the pin shows; give one"),
            (["pin", "--icon", "water", "--color", "blue"], "--color \"blue\" is not #RRGGBB, rgb(r,g,b) or rgba(r,g,b,a)"),
            (["pin", "--icon", "water", "--scale", "5"], "--scale must be 1, 1.5, 2, 3 or 4 (got '5')"),
        ])
    func refusals(arguments: [String], message: String) throws {
        try expectRefusal(arguments, says: message)
    }
}

@Suite("markerpaint callout")
struct CalloutCommandTests {
    @Test("`markerpaint callout --title … --line … --badge …` writes one PNG; --json says where the tail's tip is")
    func headline() throws {
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let run = try CLI.run(["callout", "--title", "Water at Koča", "--line", "Tap by the door", "--badge", "open", "--json"], in: folder)
        #expect(run.status == 0 && run.stderr.isEmpty, "\(run.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        #expect(Set(object.keys) == ["name", "path", "width", "height", "scale", "anchor", "sha256"])
        let name = try #require(object["name"] as? String)
        #expect(name.wholeMatch(of: /callout-water-at-ko-a-day@2x-[0-9a-f]{10}\.png/) != nil)
        #expect(try CLI.files(in: folder) == [name])
        let width = try #require(object["width"] as? Int)
        let anchor = try #require(object["anchor"] as? [String: Double])
        #expect(anchor["x"] == Double(width) / 2)
    }

    @Test(
        "bad input: one line on stderr naming the problem, exit 64, nothing written",
        arguments: [
            (["callout"], "Missing expected argument '--title <text>'"),
            (["callout", "--title", ""], "--title is empty"),
            (["callout", "--title", String(repeating: "a", count: 201)], "--title is 201 characters; a callout takes at most 200"),
            (["callout", "--title", "a"] + Array(repeating: ["--line", "b"], count: 7).flatMap { $0 }, "--line is given 7 times; a callout has at most 6 detail lines"),
            (["callout", "--title", "a", "--badge-color", "#ff0000"], "--badge-color colours a badge; give --badge too"),
            (["callout", "--title", "a", "--badge", "x", "--badge-color", "red"], "--badge-color \"red\" is not #RRGGBB, rgb(r,g,b) or rgba(r,g,b,a)"),
        ])
    func refusals(arguments: [String], message: String) throws {
        try expectRefusal(arguments, says: message)
    }
}

@Suite("markerpaint callout --photo")
struct CalloutPhotoCommandTests {
    static let photos = Repository.root.appendingPathComponent("Tests/Fixtures/photos")

    @Test("a photo is drawn in; a bad one is one line, exit 64, nothing written", arguments: [
        ("lake.jpg", nil),
        ("claims-40000.jpg", "the photo claims 40000 × 40000 pixels"),
        ("lake-truncated.jpg", "the photo does not decode as a JPEG: Premature end of JPEG file"),
        ("claims-40000.png", "the photo claims 40000 × 40000 pixels"),
        ("missing.jpg", "no such file"),
    ] as [(String, String?)])
    func photo(name: String, message: String?) throws {
        let arguments = ["callout", "--title", "Jezero", "--photo", Self.photos.appendingPathComponent(name).path]
        if let message {
            try expectRefusal(arguments, says: message)
        } else {
            let folder = try CLI.temporaryFolder()
            defer { try? FileManager.default.removeItem(at: folder) }
            let run = try CLI.run(arguments, in: folder)
            #expect(run.status == 0, "\(run.stderr)")
            #expect(try CLI.files(in: folder).count == 1)
        }
    }
}

@Suite("markerpaint pin --icon-file")
struct PinIconFileCommandTests {
    @Test("a self-contained SVG is drawn; one pointing at a file is one line, exit 64, nothing written")
    func iconFile() throws {
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let icon = Repository.root.appendingPathComponent("Tests/Fixtures/icons/bench.svg").path
        let run = try CLI.run(["pin", "--icon-file", icon], in: folder)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(try CLI.files(in: folder).first?.hasPrefix("pin-svg-bench-day@2x-") == true)

        let other = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: other) }
        try #"<svg><image href="file:///etc/passwd"/></svg>"#.write(to: other.appendingPathComponent("evil.svg"), atomically: true, encoding: .utf8)
        let refused = try CLI.run(["pin", "--icon-file", "evil.svg"], in: other)
        #expect(refused.status == 64)
        #expect(refused.stderr == "markerpaint: --icon-file evil.svg: icon file refers to 'file:///etc/passwd'; an SVG icon must be self-contained (paths only)\n")
        #expect(try CLI.files(in: other) == ["evil.svg"])
        let both = try CLI.run(["pin", "--icon-file", "evil.svg", "--icon", "water"], in: other)
        #expect(both.status == 64 && both.stderr.contains("--icon, --icon-file and --text each say what the pin shows; give one"))
    }
}

/// Runs markerpaint with `arguments` in a folder of its own and expects a refusal: exit 64, one
/// line on stderr holding `message`, and nothing written.
private func expectRefusal(_ arguments: [String], says message: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
    let folder = try CLI.temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let run = try CLI.run(arguments, in: folder)
    #expect(run.status == 64, sourceLocation: sourceLocation)
    #expect(run.stderr.contains(message), "\(run.stderr)", sourceLocation: sourceLocation)
    #expect(run.stderr.split(separator: "\n").count == 1, "\(run.stderr)", sourceLocation: sourceLocation)
    #expect(try CLI.files(in: folder).isEmpty, sourceLocation: sourceLocation)
}
