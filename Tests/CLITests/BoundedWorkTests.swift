import Foundation
import Testing

/// Tiny inputs that would make enormous work are refused from arithmetic on their stage lengths,
/// quickly, in little memory, with one line naming the file and the limit, and with nothing written.
@Suite("markerpaint route: bounded work")
struct BoundedWorkTests {
    /// 2,000 points between longitude 0 and 179.9 on the equator: 16 KB, 40 million km of route.
    static let zigzag: String = {
        let positions = (0..<2000).map { $0.isMultiple(of: 2) ? "[0,0]" : "[179.9,0]" }
        return #"{"type":"LineString","coordinates":[\#(positions.joined(separator: ","))]}"#
    }()

    @Test("a 16 KB zigzag is refused in under a second and 200 MB")
    func zigzagIsRefusedCheaply() throws {
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(Self.zigzag.utf8.count < 17_000)
        try Data(Self.zigzag.utf8).write(to: folder.appendingPathComponent("zigzag.geojson"))
        let run = try CLI.measuredRun(["route", "zigzag.geojson", "--out", "out"], in: folder)
        #expect(run.status == 1)
        #expect(run.stderr.split(separator: "\n").count == 1, "\(run.stderr)")
        #expect(run.stderr.hasPrefix("markerpaint: zigzag.geojson: "), "\(run.stderr)")
        #expect(run.stderr.contains("more than a marker can show (100,000 km)"), "\(run.stderr)")
        #expect(run.cpuSeconds < 1, "took \(run.cpuSeconds) s of processor time")
        #expect(run.peakResidentBytes < 200 << 20, "peak \(run.peakResidentBytes >> 20) MB")
        #expect(try CLI.files(in: folder) == ["zigzag.geojson"], "nothing written")
    }

    @Test("a short route with too many stages is refused by its marker count, naming the file")
    func tooManyMarkers() throws {
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        // 20 stages of 19,990 km each: every reading is drawable, but together they need ~400,000 markers.
        let stage = #"[[0,0],[179.9,0]]"#
        let text = #"{"type":"MultiLineString","coordinates":[\#(Array(repeating: stage, count: 20).joined(separator: ","))]}"#
        try Data(text.utf8).write(to: folder.appendingPathComponent("stages.geojson"))
        let run = try CLI.measuredRun(["route", "stages.geojson", "--out", "out"], in: folder)
        #expect(run.status == 1)
        #expect(run.stderr.hasPrefix("markerpaint: stages.geojson: the route needs 400,1"), "\(run.stderr)")
        #expect(run.stderr.contains("more than the limit of 200,000 per route"), "\(run.stderr)")
        #expect(run.cpuSeconds < 1, "took \(run.cpuSeconds) s of processor time")
        #expect(try CLI.files(in: folder) == ["stages.geojson"])
    }

    @Test("a 345-byte polyline that would read past 100,000 km names the file and the limit")
    func polylinePastTheLargestReading() throws {
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let points = (0..<50).map { (latitude: 0.0, longitude: $0.isMultiple(of: 2) ? 0.0 : 179.9) }
        let polyline = Self.encode(points)
        #expect(polyline.utf8.count < 400)
        try Data(polyline.utf8).write(to: folder.appendingPathComponent("far.txt"))
        let run = try CLI.measuredRun(["route", "far.txt", "--polyline5", "--out", "out"], in: folder)
        #expect(run.status == 1)
        #expect(run.stderr.hasPrefix("markerpaint: far.txt: stage 1 would end at 980,1"), "\(run.stderr)")
        #expect(run.cpuSeconds < 1 && run.peakResidentBytes < 200 << 20)
        #expect(try CLI.files(in: folder) == ["far.txt"])
    }

    /// Google's polyline encoding, precision 5.
    static func encode(_ points: [(latitude: Double, longitude: Double)]) -> String {
        var text = ""
        var previous = (0, 0)
        for point in points {
            let current = (Int((point.latitude * 1e5).rounded()), Int((point.longitude * 1e5).rounded()))
            for delta in [current.0 - previous.0, current.1 - previous.1] {
                var value = delta < 0 ? ~(delta << 1) : delta << 1
                while value >= 0x20 {
                    text.unicodeScalars.append(Unicode.Scalar(UInt8((0x20 | (value & 0x1F)) + 63)))
                    value >>= 5
                }
                text.unicodeScalars.append(Unicode.Scalar(UInt8(value + 63)))
            }
            previous = current
        }
        return text
    }
}
