import Foundation
import TestSupport
import Testing

@Suite("markerpaint progress")
struct ProgressCommandTests {
    struct Line: Decodable {
        var fix: Int
        var distance: Double
        var remaining: Double
        var onRoute: Bool
        var event: String?
        var marker: String?
        var markers: [String]?
    }

    @Test("a real track followed against itself: a line a fix, all on the route, start, stage ends and finish, markers drawn")
    func trackAgainstItself() throws {
        let folder = try CLI.temporaryFolder()
        let track = Repository.sharedRoutes.appendingPathComponent("korita-zbevnica.gpx").path
        let run = try CLI.run(["progress", track, track, "--out", "m", "--themes", "day,night"], in: folder)
        #expect(run.status == 0, "\(run.stderr)")
        let lines = try run.stdout.split(separator: "\n").map { try JSONDecoder().decode(Line.self, from: Data($0.utf8)) }
        #expect(lines.count == 871)
        #expect(lines.allSatisfy { $0.onRoute })
        #expect(lines.map { $0.fix } == Array(1...871))
        #expect(lines.compactMap { $0.event } == ["start", "stageFinish", "stageFinish", "finish"])
        #expect(lines.last?.remaining == 0)
        // Distance done goes back no further than the recording itself does: at fix 576, after
        // 54 s standing, the receiver put the rider 5.1 m back along the road they came by, and the
        // next fix, 18 s later, is as near that place as the one ahead.
        let steps = zip(lines, lines.dropFirst()).map { ($1.fix, ($1.distance - $0.distance) * 1000) }
        #expect(steps.allSatisfy { $0.1 >= -5.1 }, "\(steps.filter { $0.1 < 0 })")
        #expect(steps.filter { $0.1 < -0.1 }.map(\.0).allSatisfy { (576...577).contains($0) }, "\(steps.filter { $0.1 < -0.1 })")
        let files = Set(try CLI.files(in: folder.appendingPathComponent("m")))
        for line in lines {
            #expect(line.markers?.count == 2)
            for name in line.markers ?? [] { #expect(files.contains(name), "\(name) not drawn") }
        }
        #expect(lines.first?.marker?.hasPrefix("countdown-15km-day@2x-") == true)
    }

    @Test("a bad fix is named by its line on stderr, the rest followed, exit 1; NDJSON on stdin is answered a line a fix")
    func badFixesAndStandardInput() throws {
        let folder = try CLI.temporaryFolder()
        let track = Repository.sharedRoutes.appendingPathComponent("korita-zbevnica.gpx").path
        try "lat,lon,time\n45.1,nan,2024-01-01T00:00:00Z\n45.3806,14.14449,2024-01-01T00:00:05Z\n45.3806,14.14449,2024-01-01T00:00:01Z\n"
            .write(to: folder.appendingPathComponent("fixes.csv"), atomically: true, encoding: .utf8)
        let run = try CLI.run(["progress", track, "fixes.csv", "--out", "m"], in: folder)
        #expect(run.status == 1)
        #expect(run.stderr.contains("fixes.csv: line 2: longitude nan is not a number from -180 to 180"))
        #expect(run.stderr.contains("fixes.csv: line 4: time goes backwards"))
        #expect(run.stdout.split(separator: "\n").count == 1)

        let live = try CLI.run(
            ["progress", track, "-", "--out", "m"], in: folder,
            input: Data("{\"lat\": 45.3806, \"lon\": 14.14449, \"time\": 1}\n\n{\"lat\": \"x\"}\n".utf8))
        #expect(live.status == 1)
        #expect(live.stdout.split(separator: "\n").count == 1)
        #expect(live.stderr.contains("standard input: line 3: \"lat\" is a string, not a number"))

        // A line longer than any fix is skipped to its end and named; the lines after it are followed.
        let long = "{\"lat\": 45.3806, \"lon\": 14.14449, \"note\": \"" + String(repeating: "x", count: 100_000) + "\"}\n"
        let bounded = try CLI.run(
            ["progress", track, "-", "--out", "m"], in: folder,
            input: Data((long + "{\"lat\": 45.3806, \"lon\": 14.14449}\r\n" + long.dropLast()).utf8))
        #expect(bounded.status == 1)
        #expect(bounded.stdout.split(separator: "\n").map { $0.contains("\"line\":2") } == [true])
        #expect(bounded.stderr.contains("standard input: line 1: the line is 100045 bytes long; a fix takes at most 4096"))
        #expect(bounded.stderr.contains("standard input: line 3: the line is 100045 bytes long"))
    }
}
