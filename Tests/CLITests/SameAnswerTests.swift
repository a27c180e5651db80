import Foundation
import TestSupport
import Testing

/// The command line and the service side by side: one prepared route serves `markerpaint route`
/// and `POST /v1/routes`, one loop over fixes serves `markerpaint progress` and `POST /v1/progress`,
/// so the same route and options give the same markers, and the same fixes the same lines.
@Suite("the command line and the service give the same answers")
struct SameAnswerTests {
    /// One set of options, as flags and as the query that asks the same.
    struct Options: CustomTestStringConvertible, Sendable {
        let flags: [String]
        let query: String
        var testDescription: String { flags.isEmpty ? "defaults" : flags.joined(separator: " ") }
    }

    static let options = [
        Options(flags: [], query: ""),
        Options(flags: ["--placement", "course-up"], query: "placement=course-up"),
        Options(
            flags: ["--zooms", "table", "--unit", "mi", "--countdown", "--cumulative", "--locale", "de", "--interval", "2"],
            query: "zooms=table&unit=mi&countdown=true&cumulative=true&locale=de&interval=2"),
        Options(flags: ["--unit", "nmi", "--interval", "0.5"], query: "unit=nmi&interval=0.5"),
    ]

    static let routes = ["korita-zbevnica.gpx", "cerknicko-jezero.gpx", "route.gpx"]

    /// What must agree for each marker: kind, stage, label, zooms and where it stands.
    static func markers(_ document: Any?) throws -> [String] {
        let features = try #require((document as? [String: Any])?["features"] as? [[String: Any]])
        return try features.map { feature in
            let properties = try #require(feature["properties"] as? [String: Any])
            let point = try #require((feature["geometry"] as? [String: Any])?["coordinates"] as? [Double])
            let fields = ["kind", "stage", "label", "minzoom", "minzoomTurned"].map { "\($0)=\(properties[$0] ?? "none")" }
            return (fields + ["point=\(point)"]).joined(separator: " ")
        }
    }

    static func post(_ port: Int, _ path: String, body: String, contentType: String? = nil) async throws -> String {
        let type = contentType.map { "Content-Type: \($0)\r\n" } ?? ""
        let request = "POST \(path) HTTP/1.1\r\nHost: x\r\n\(type)Content-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n\(body)"
        let response = try #require(try await RawConnection.exchange(port: port, request))
        try #require(response.status == 200, "\(path): \(response.status) \(response.body.prefix(300))")
        return response.body
    }

    @Test(
        "markers.geojson and the route document hold the same markers (kind, stage, label, minzoom, minzoomTurned, point)",
        arguments: routes, options)
    func sameMarkers(route: String, options: Options) async throws {
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = Repository.sharedRoute(route)
        let run = try CLI.run(["route", path, "--out", "out", "--themes", "day", "--no-sprites"] + options.flags, in: folder)
        try #require(run.status == 0, "\(run.stderr)")
        let written = try JSONSerialization.jsonObject(with: Data(contentsOf: folder.appendingPathComponent("out/markers.geojson")))

        let server = try ServeCommandTests.Server([])
        defer { server.process.terminate() }
        let query = "themes=day&sprites=false" + (options.query.isEmpty ? "" : "&" + options.query)
        let body = try await Self.post(server.port, "/v1/routes?\(query)", body: String(contentsOfFile: path, encoding: .utf8))
        let served = try JSONSerialization.jsonObject(with: Data(body.utf8))

        let (fromCLI, fromService) = (try Self.markers(written), try Self.markers(served))
        #expect(fromCLI.count > 2)
        #expect(fromCLI == fromService)
        // The service's layers show markers from the zoom the placement says, as style.json's do.
        let layers = try #require((served as? [String: Any])?["layers"] as? [[String: Any]])
        let layer = try JSONSerialization.jsonObject(with: Data(contentsOf: folder.appendingPathComponent("out/style-layer-day.json"))) as? [String: Any]
        #expect("\(try #require(layers.first?["filter"]))" == "\(try #require(layer?["filter"]))")
    }

    /// A progress line without what names its picture (a file for the command line, an icon id for the
    /// service), and with the picture's kind, label and theme instead.
    static func comparable(_ line: Substring) throws -> String {
        var object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        for key in ["marker", "markers", "icon", "icons"] { object.removeValue(forKey: key) }
        let names = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])["markers"] as? [String]
        // countdown-7km-day@2x-8680ea77c8.png and countdown-7km-day-5f3e67568a both read countdown-7km-day.
        let pictures = (names ?? []).map { name in
            name.contains("@") ? String(name.prefix { $0 != "@" }) : String(name[..<(name.lastIndex(of: "-") ?? name.endIndex)])
        }
        object["pictures"] = pictures
        return String(decoding: try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]), as: UTF8.self)
    }

    @Test("markerpaint progress and POST /v1/progress write the same line for each fix", arguments: ["Mojstrovka.gpx", "korita-zbevnica.gpx"])
    func sameProgress(route: String) async throws {
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = Repository.sharedRoute(route)
        let run = try CLI.run(["progress", path, path, "--themes", "day,night", "--out", "markers"], in: folder)
        let routeText = try String(contentsOfFile: path, encoding: .utf8)
        let boundary = "markerpaint-same-answer"
        let form =
            "--\(boundary)\r\nContent-Disposition: form-data; name=\"route\"; filename=\"route.gpx\"\r\n\r\n\(routeText)\r\n"
            + "--\(boundary)\r\nContent-Disposition: form-data; name=\"fixes\"; filename=\"fixes.gpx\"\r\n\r\n\(routeText)\r\n--\(boundary)--\r\n"
        let server = try ServeCommandTests.Server([])
        defer { server.process.terminate() }
        let body = try await Self.post(
            server.port, "/v1/progress?themes=day,night", body: form, contentType: "multipart/form-data; boundary=\(boundary)")

        let fromCLI = try run.stdout.split(separator: "\n").map(Self.comparable)
        // A fix the command line refuses is on its standard error; the service answers it in place.
        let fromService = try body.split(separator: "\n").filter { !$0.contains("\"error\"") }.map(Self.comparable)
        #expect(fromCLI.count > 10)
        #expect(fromCLI == fromService)
    }
}
