import Foundation
import MarkerPixels
import MarkerRender
import MarkerSpec
import SystemPackage
import TestSupport
import Testing

@testable import MarkerGolden
import MarkerPNG

/// The repository's goldens, found from this file rather than the working directory.
let goldensDirectory = Repository.goldens.path

@Suite("Golden images")
struct GoldenVerificationTests {
    @Test("every golden case renders as its golden image")
    func goldensMatch() throws {
        let suite = try GoldenSuite(directory: FilePath(goldensDirectory))
        #expect(suite.cases.count >= 72)
        let comparisons = try suite.verify()
        let failures = comparisons.filter { !$0.passed }
        if !failures.isEmpty {
            let report = FileManager.default.temporaryDirectory.appendingPathComponent("markerpaint-golden-report").path
            try GoldenReportWriter.write(comparisons, to: FilePath(report))
            Issue.record("\(failures.count) golden cases differ: \(failures.map(\.name)); report in \(report)/index.html")
        }
    }

    @Test("the cases cover every kind × theme × scale, the required labels, miles and a palette")
    func coverage() throws {
        let requests = try GoldenSuite(directory: FilePath(goldensDirectory)).cases.map(\.request)
        for kind in Marker.Kind.allCases {
            for theme in [Theme.day, .night] {
                for scale in MarkerScale.all.prefix(4) {
                    #expect(requests.contains { $0.marker.kind == kind && $0.theme == theme && $0.scale == scale })
                }
            }
        }
        let numbers = Set(requests.map(\.marker.number))
        #expect(numbers.isSuperset(of: ["0", "1", "7.5", "10", "123", "1234", "12345"]))
        #expect(requests.contains { $0.marker.unit == .mi })
        #expect(requests.contains { $0.theme != .day && $0.theme != .night })
    }

    /// A golden marker and ways to damage it that the check must catch.
    enum Damage: String, CaseIterable, CustomStringConvertible {
        case none, shiftedOnePixel, changedColour, clippedShadow, transparentToWhite, whiteToTransparent
        var description: String { rawValue }
    }

    @Test(
        "the check bites: identical passes; a shift, a colour, a clipped shadow and transparency-vs-white fail",
        arguments: Damage.allCases)
    func bites(damage: Damage) throws {
        let name = "end-123km-night@2x"
        let golden = try PNGDecoder.decode([UInt8](Data(contentsOf: URL(fileURLWithPath: "\(goldensDirectory)/\(name).png"))))
        let request = try MarkerRequest(marker: Marker(kind: .end, distance: 123), theme: .night, scale: 2)
        let renderer = try MarkerRenderer()
        var actual = try renderer.draw(request).image
        switch damage {
        case .none:
            break
        case .shiftedOnePixel:
            actual = shifted(actual, by: 1)
        case .changedColour:
            var palette = Palette.night
            palette.pillFill = Colour(rgb: 35, 35, 60, alpha: 0.85)
            actual = try renderer.draw(MarkerRequest(marker: request.marker, theme: Theme(name: "bluish", palette: palette), scale: 2)).image
        case .clippedShadow:
            // The canvas cut just below the dot, as if it were too small, keeping its size.
            let anchor = try renderer.draw(request).anchor
            for y in (Int(anchor.y) + 3 * 2 + 1)..<actual.height {
                for x in 0..<actual.width { actual[x, y] = .clear }
            }
        case .transparentToWhite:
            for y in 0..<actual.height {
                for x in 0..<actual.width where actual[x, y].a == 0 { actual[x, y] = RGBA(r: 255, g: 255, b: 255, a: 255) }
            }
        case .whiteToTransparent:
            let dayRequest = try MarkerRequest(marker: request.marker, theme: .day, scale: 2)
            let dayGolden = try PNGDecoder.decode([UInt8](Data(contentsOf: URL(fileURLWithPath: "\(goldensDirectory)/end-123km-day@2x.png"))))
            var flattened = dayGolden
            for y in 0..<flattened.height {
                for x in 0..<flattened.width where flattened[x, y].a == 0 { flattened[x, y] = RGBA(r: 255, g: 255, b: 255, a: 255) }
            }
            let result = PixelComparison.compare(
                expected: flattened, actual: try renderer.draw(dayRequest).image,
                options: GoldenSuite.defaultOptions)
            #expect(!result.passed)
            return
        }
        let result = PixelComparison.compare(expected: golden, actual: actual, options: GoldenSuite.defaultOptions)
        #expect(result.passed == (damage == .none), "\(result.differingPixels) of \(result.totalPixels) differ")
    }

    @Test("a failing verification writes expected, actual, diff, index.html and junit.xml")
    func failureReport() throws {
        let temporary = FileManager.default.temporaryDirectory.appendingPathComponent("markerpaint-\(UUID())")
        defer { try? FileManager.default.removeItem(at: temporary) }
        let goldens = temporary.appendingPathComponent("goldens").path
        let report = temporary.appendingPathComponent("report").path
        try FileManager.default.createDirectory(atPath: goldens, withIntermediateDirectories: true)
        let cases =
            #"{"cases": [{"kind": "distance", "distance": 10, "unit": "km", "theme": "day", "scale": 1},"#
            + #" {"kind": "end", "distance": 123, "unit": "km", "theme": "night", "scale": 1}]}"#
        try Data(cases.utf8).write(to: URL(fileURLWithPath: "\(goldens)/cases.json"))
        let suite = try GoldenSuite(directory: FilePath(goldens))
        let recorded = try suite.record()
        #expect(recorded.count == 2)
        // Swap one golden for another picture of the same size.
        let wrong = try MarkerRenderer().render(try MarkerRequest(marker: Marker(kind: .distance, distance: 10), theme: .night, scale: 1))
        try Data(wrong.png).write(to: URL(fileURLWithPath: "\(goldens)/distance-10km-day@1x.png"))
        let outcomes = try GoldenReportWriter.write(try suite.verify(), to: FilePath(report))
        #expect(outcomes.map(\.passed) == [false, true])
        let files = Set(try FileManager.default.contentsOfDirectory(atPath: report))
        #expect(try FileManager.default.contentsOfDirectory(atPath: goldens).contains(GoldenSuite.contactSheetFileName))
        #expect(
            files == [
                "distance-10km-day@1x.expected.png", "distance-10km-day@1x.actual.png",
                "distance-10km-day@1x.diff.png", "index.html", "junit.xml",
            ])
        let junit = try String(contentsOfFile: "\(report)/junit.xml", encoding: .utf8)
        #expect(junit.contains(#"failures="1""#))
    }

    @Test("verification never writes to the goldens")
    func verifyIsReadOnly() throws {
        let before = try goldenFingerprint()
        _ = try GoldenSuite(directory: FilePath(goldensDirectory)).verify()
        #expect(try goldenFingerprint() == before)
    }

    private func goldenFingerprint() throws -> [String: Data] {
        let names = try FileManager.default.contentsOfDirectory(atPath: goldensDirectory)
        return try Dictionary(
            uniqueKeysWithValues: names.filter { $0.hasSuffix(".png") }.map {
                ($0, try Data(contentsOf: URL(fileURLWithPath: "\(goldensDirectory)/\($0)")))
            })
    }

    private func shifted(_ image: RGBAImage, by dx: Int) -> RGBAImage {
        var result = RGBAImage(width: image.width, height: image.height)
        for y in 0..<image.height {
            for x in dx..<image.width { result[x, y] = image[x - dx, y] }
        }
        return result
    }
}
