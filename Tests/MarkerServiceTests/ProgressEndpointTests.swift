import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import MarkerRender
import RouteModel
import RouteFormats
import RideTracking
import MarkerService
import MarkerSpec
import TestSupport
import Testing

/// `POST /v1/progress`: a route and fixes in a form; out, a line per fix as the library follows
/// them, with the countdown marker's icon id and URL, which serve that marker.
@Suite("Progress along a route")
struct ProgressEndpointTests {
    /// A `multipart/form-data` body as curl -F sends it.
    struct Form {
        static let boundary = "------------------------d74496d66958873e"
        var body: [UInt8] = []

        init(_ parts: [(name: String, fileName: String?, bytes: [UInt8])]) {
            for part in parts {
                body += Array("--\(Self.boundary)\r\n".utf8)
                let file = part.fileName.map { "; filename=\"\($0)\"" } ?? ""
                body += Array("Content-Disposition: form-data; name=\"\(part.name)\"\(file)\r\n".utf8)
                body += Array("Content-Type: application/octet-stream\r\n\r\n".utf8)
                body += part.bytes + Array("\r\n".utf8)
            }
            body += Array("--\(Self.boundary)--\r\n".utf8)
        }

        static var headers: HTTPFields { [.contentType: "multipart/form-data; boundary=\(boundary)"] }
    }

    static let refusedFixes = HTTPField.Name("X-Refused-Fixes")!

    /// One line of the answer, as far as the tests read it.
    struct Line: Decodable {
        var fix: Int?
        var line: Int
        var distance: Double?
        var remaining: Double?
        var onRoute: Bool?
        var event: String?
        var marker: String?
        var markers: [String]?
        var icon: String?
        var icons: [String]?
        var error: String?
    }

    static func lines(_ response: LiveResponse) throws -> [(text: Substring, line: Line)] {
        try response.text.split(separator: "\n").map { ($0, try JSONDecoder().decode(Line.self, from: Data($0.utf8))) }
    }

    /// What the library says of the same fixes: each followed fix's line, without the marker fields.
    static func expected(route: [UInt8], fixes: [UInt8], format: FixFormat?, unit: Marker.Unit = .km) throws -> [Int: (String, Marker)] {
        var tracker = RouteTracker(course: try RouteCourse(route: Route.parse(route, format: nil)))
        var result: [Int: (String, Marker)] = [:]
        var followed = 0
        for record in try FixReader.read(fixes, format: format) {
            guard case .success(let fix) = record.fix, let progress = try? tracker.update(fix) else { continue }
            followed += 1
            let marker = try Marker.countdown(remaining: progress.remaining, unit: unit, interval: .one, mark: .point)
            result[record.line] = (ProgressLine(progress, fix: followed, line: record.line, unit: unit).json, marker)
        }
        return result
    }

    @Test("a real track against itself: a line per fix as the library follows it, with icons that serve the countdown marker")
    func realTrack() async throws {
        let track = try sharedRouteBytes("korita-zbevnica.gpx")
        let expected = try Self.expected(route: track, fixes: track, format: .gpx)
        try await LiveService.run { client in
            let response = try await client.execute(
                uri: "/v1/progress?themes=day,night", method: .post, headers: Form.headers,
                body: ByteBuffer(bytes: Form([("route", "ride.gpx", track), ("fixes", "ride.gpx", track)]).body))
            #expect(response.status == .ok)
            #expect(response.headers[.contentType] == "application/x-ndjson")
            #expect(response.headers[Self.refusedFixes] == "0")
            let lines = try Self.lines(response)
            #expect(lines.count == 871 && expected.count == 871)
            #expect(lines.compactMap(\.line.event) == ["start", "stageFinish", "stageFinish", "finish"])
            var served = Set<String>()
            for (text, line) in lines {
                let (fields, marker) = try #require(expected[line.line])
                // The library's fields first, in its order, then the marker's.
                #expect(text.hasPrefix(fields.dropLast()), "\(text)")
                let ids = try #require(line.markers)
                let icons = try #require(line.icons)
                #expect(line.marker == ids.first && line.icon == icons.first)
                for (theme, (id, icon)) in zip([Theme.day, .night], zip(ids, icons)) {
                    let parsed = try #require(SpriteID.parse(id[...]))
                    #expect(parsed.marker == marker && parsed.theme == theme)
                    #expect(icon == "/v1/icons/\(id)@2x.png")
                    guard served.insert(icon).inserted else { continue }
                    let image = try await client.execute(uri: icon, method: .get)
                    #expect(image.status == .ok)
                    let reference = try MarkerRenderer().render(MarkerRequest(marker: marker, theme: theme, scale: 2))
                    #expect(image.bytes == reference.png)
                }
            }
            // 15 km to go down to 1: one countdown marker for each, in two themes.
            #expect(served.count == 30)
        }
    }

    @Test("a fix that cannot be followed gets an error line in its place; CSV and NDJSON, by name or by the query")
    func refusedFixes() async throws {
        let track = try sharedRouteBytes("korita-zbevnica.gpx")
        let csv = Array("lat,lon,time\n45.3806,14.14449,2024-01-01T00:00:00Z\n45.1,nan,2024-01-01T00:00:01Z\n45.3806,14.1445,2024-01-01T00:00:05Z\n".utf8)
        let ndjson = Array("{\"lat\": 45.3806, \"lon\": 14.14449, \"time\": 10}\n{\"lat\": 45.3806, \"lon\": 14.1445, \"time\": 5}\n\n{\"lat\": 45.38061, \"lon\": 14.1446}\n".utf8)
        try await LiveService.run { client in
            for (uri, name, fixes, refusedLine, message) in [
                ("/v1/progress?unit=mi&ratio=3", "fixes.csv", csv, 3, "longitude nan is not a number from -180 to 180"),
                ("/v1/progress?fixes=ndjson&ratio=3&unit=mi", nil, ndjson, 2, "time goes backwards"),
            ] {
                let response = try await client.execute(
                    uri: uri, method: .post, headers: Form.headers,
                    body: ByteBuffer(bytes: Form([("route", nil, track), ("fixes", name, fixes)]).body))
                #expect(response.status == .ok, "\(response.text)")
                #expect(response.headers[Self.refusedFixes] == "1")
                let lines = try Self.lines(response).map(\.line)
                #expect(lines.map(\.line) == (fixes == csv ? [2, 3, 4] : [1, 2, 4]))
                #expect(lines.map(\.fix) == [1, nil, 2])
                let refused = try #require(lines.first { $0.line == refusedLine })
                #expect(refused.error?.hasPrefix(message) == true, "\(refused)")
                #expect(lines.first?.icon?.hasPrefix("/v1/icons/countdown-9mi-day-") == true)
                #expect(lines.first?.icon?.hasSuffix("@3x.png") == true)
            }
        }
    }

    @Test("as many fixes as the default allows fit the response limit, in two themes with signed URLs")
    func defaultLimitFits() async throws {
        let track = try sharedRouteBytes("korita-zbevnica.gpx")
        let points = try Route.parse(track, format: .gpx).stages.flatMap(\.coordinates)
        let count = ServiceConfiguration.defaultMaximumProgressFixes
        var csv = "lat,lon,accuracy,speed\n"
        for index in 0..<count {
            let point = points[index * points.count / count]
            csv += "\(point.latitude),\(point.longitude),12.5,4.25\n"
        }
        var configuration = try SigningTests.configuration(keys: SigningTests.hexKey)
        configuration.publicBaseURL = "https://markers.example.com"
        let body = Form([("route", "ride.gpx", track), ("fixes", "fixes.csv", Array(csv.utf8))]).body
        try await LiveService.run(configuration) { client in
            // Over a connection that waits as long as a loaded CI machine needs (the test client gives up
            // after 15 s without a byte; a debug build follows 20,000 fixes before the first).
            let connection = try RawConnection(port: try #require(client.port), readTimeout: 300)
            let head = "POST /v1/progress?themes=day,night HTTP/1.1\r\nHost: x\r\nContent-Type: \(Form.headers[.contentType] ?? "")\r\n"
            #expect(await connection.send(head + "Content-Length: \(body.count)\r\n\r\n" + String(decoding: body, as: UTF8.self)))
            let response = try #require(await connection.readResponse())
            #expect(response.status == 200, "\(response.body.prefix(300))")
            #expect(response.body.utf8.count <= ServiceConfiguration.defaultMaximumResponseBytes)
            #expect(response.body.split(separator: "\n").count == count)
        }
    }

    @Test(
        "what cannot be followed is refused whole, naming what is wrong",
        arguments: [
            ("", "text/plain", 400, "not multipart/form-data"),
            ("", "multipart/form-data", 400, "names no boundary"),
            ("route", Form.headers[.contentType]!, 400, "needs a part \"route\" and a part \"fixes\""),
            ("route,fixes,notes", Form.headers[.contentType]!, 400, "has a part \"notes\""),
            ("route,route,fixes", Form.headers[.contentType]!, 400, "more than one part \"route\""),
            ("threshold=5", Form.headers[.contentType]!, 400, "parameter \"threshold\": must be 20 to 100"),
            ("fixes=kml", Form.headers[.contentType]!, 400, "parameter \"fixes\": must be gpx, csv or ndjson"),
            ("truncated", Form.headers[.contentType]!, 400, "no closing boundary"),
            ("badroute", Form.headers[.contentType]!, 400, "route: "),
            ("badfixes", Form.headers[.contentType]!, 400, "fixes: line 1: the CSV header names no lat and lon"),
            ("many", Form.headers[.contentType]!, 400, "follows at most 100 per request"),
            ("large", Form.headers[.contentType]!, 413, "larger than this service accepts"),
        ])
    func refusals(parts: String, contentType: String, status: Int, message: String) async throws {
        let track = try sharedRouteBytes("korita-zbevnica.gpx")
        var configuration = LiveService.configuration
        configuration.maximumProgressFixes = 100
        configuration.maximumRouteBytes = 400_000
        var query = ""
        var form: Form
        switch parts {
        case "threshold=5", "fixes=kml":
            query = "?" + parts
            form = Form([("route", nil, track), ("fixes", nil, track)])
        case "truncated":
            form = Form([("route", nil, track), ("fixes", nil, track)])
            form.body.removeLast(80)
        case "badroute": form = Form([("route", nil, Array("not a route".utf8)), ("fixes", nil, track)])
        case "badfixes": form = Form([("route", nil, track), ("fixes", nil, Array("a,b\n1,2\n".utf8))])
        case "many":
            let fixes = "lat,lon\n" + String(repeating: "45.3806,14.14449\n", count: 101)
            form = Form([("route", nil, track), ("fixes", nil, Array(fixes.utf8))])
        case "large": form = Form([("route", nil, track), ("fixes", nil, Array(repeating: 0x20, count: 400_000))])
        default: form = Form(parts.split(separator: ",").map { (String($0), nil, track) })
        }
        let (body, uri) = (form.body, "/v1/progress" + query)
        try await LiveService.run(configuration) { client in
            let response = try await client.execute(
                uri: uri, method: .post, headers: [.contentType: contentType], body: ByteBuffer(bytes: body))
            #expect(response.status.code == status)
            let error = try ErrorBody(response)
            #expect(error.error.contains(message), "\(error.error)")
            #expect(error.parameter == (uri.contains("?") ? String(parts.prefix { $0 != "=" }) : "body"))
        }
    }
}
