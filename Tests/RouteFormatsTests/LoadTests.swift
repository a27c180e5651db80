import Foundation
import RouteModel
import RouteFormats
import MarkerSpec
import TestSupport
import Testing

@Suite("Loading files")
struct LoadTests {
    /// A fresh directory for one test's files, removed afterwards.

    static let geoJSON = #"{"type": "LineString", "coordinates": [[14.5, 46.05], [14.36, 46.24]]}"#
    static let gpx = #"<gpx><trk><trkseg><trkpt lat="46.05" lon="14.5"/><trkpt lat="46.24" lon="14.36"/></trkseg></trk></gpx>"#

    /// A sparse 200 MB file is refused from its size alone, with the size and the limit in the message.
    @Test func oversizedFileIsRefusedUpFront() throws {
        let scratch = try TemporaryFolder("markerpaint-load")
        let path = scratch.url.appendingPathComponent("huge.gpx").path
        #expect(FileManager.default.createFile(atPath: path, contents: nil))
        let handle = try #require(FileHandle(forWritingAtPath: path))
        try handle.truncate(atOffset: 200_000_000)
        try handle.close()
        let error = #expect(throws: RouteError.self) { try Route.load(path: path, format: nil) }
        #expect(error?.says(["huge.gpx", "190.7 MiB (200000000 bytes)", "limit of 64 MiB (67108864 bytes)"]) == true, "\(error?.message ?? "")")
    }

    /// A file of exactly the limit is read and judged on its content, not refused for its size.
    @Test func fileAtTheLimitIsRead() throws {
        let scratch = try TemporaryFolder("markerpaint-load")
        let path = scratch.url.appendingPathComponent("zeros.gpx").path
        #expect(FileManager.default.createFile(atPath: path, contents: nil))
        let handle = try #require(FileHandle(forWritingAtPath: path))
        try handle.truncate(atOffset: UInt64(Route.maximumInputBytes))
        try handle.close()
        let error = #expect(throws: RouteError.self) { try Route.load(path: path, format: nil) }
        #expect(error?.message.hasPrefix(path + ": not valid XML: line 1, column 1") == true, "\(error?.message ?? "")")
    }

    /// A character device has no size to check, so the limit is enforced while reading.
    @Test func endlessInputStopsAtTheLimit() {
        let error = #expect(throws: RouteError.self) { try Route.load(path: "/dev/zero", format: nil) }
        #expect(error?.says(["/dev/zero", "more than the limit of 64 MiB"]) == true, "\(error?.message ?? "")")
    }

    struct Case: Sendable, CustomTestStringConvertible {
        var testDescription: String { "\(name) as \(format.map { "\($0)" } ?? "detected")" }
        var name: String
        var content: String
        var format: RouteFormat?
    }

    @Test(arguments: [
        Case(name: "a.geojson", content: geoJSON, format: nil),
        Case(name: "a.json", content: geoJSON, format: nil),
        Case(name: "a.GPX", content: gpx, format: nil),
        Case(name: "route", content: gpx, format: nil),
        Case(name: "route.txt", content: "\n" + geoJSON, format: nil),
        Case(name: "route.txt", content: "ocaxG_`owAobd@~iZ", format: .polyline(precision: 5)),
        Case(name: "route.gpx", content: "ocaxG_`owAobd@~iZ\n", format: .polyline(precision: 5)),
    ])
    func formatComesFromTheCallerTheExtensionOrTheContent(_ example: Case) throws {
        let scratch = try TemporaryFolder("markerpaint-load")
        let route = try Route.load(path: try scratch.write(example.name, example.content), format: example.format)
        #expect(route.stages.count == 1)
        let first = try #require(route.stages.first?.coordinates.first)
        #expect(abs(first.latitude - 46.05) < 1e-9 && abs(first.longitude - 14.5) < 1e-9)
    }

    /// The extension wins over the content, and the message starts with the path.
    @Test func extensionDecidesTheFormat() throws {
        let scratch = try TemporaryFolder("markerpaint-load")
        let path = try scratch.write("mislabelled.gpx", Self.geoJSON)
        let error = #expect(throws: RouteError.self) { try Route.load(path: path, format: nil) }
        #expect(error?.message.hasPrefix(path + ": not valid XML") == true, "\(error?.message ?? "")")
    }

    @Test func missingFileAndDirectoryAreNamed() throws {
        let scratch = try TemporaryFolder("markerpaint-load")
        let missing = scratch.url.appendingPathComponent("nowhere.gpx").path
        #expect(throws: RouteError("\(missing): no such file")) { try Route.load(path: missing, format: nil) }
        let error = #expect(throws: RouteError.self) { try Route.load(path: scratch.url.path, format: nil) }
        #expect(error?.says([scratch.url.path, "is a directory"]) == true)
    }

    @Test func emptyFileIsNamed() throws {
        let scratch = try TemporaryFolder("markerpaint-load")
        let path = try scratch.write("empty.geojson", "")
        #expect(throws: RouteError("\(path): the input is empty")) { try Route.load(path: path, format: nil) }
    }
}

extension TemporaryFolder {
    /// Writes `text` as the file `name` in the folder; its path.
    func write(_ name: String, _ text: String) throws -> String {
        let file = url.appendingPathComponent(name)
        try Data(text.utf8).write(to: file)
        return file.path
    }
}
