import Foundation
import MarkerGolden
import MarkerPixels
import MarkerSpec
import SystemPackage
import TestSupport
import Testing

@testable import MarkerRender
import MarkerPNG

/// `--format svg|pdf`: the PNG's drawing as a document, checked by rasterising it with other
/// programs (librsvg's rsvg-convert, poppler's pdftocairo) and comparing with the PNG's pixels.
@Suite("SVG and PDF documents")
struct VectorDocumentTests {
    struct Case: Sendable, CustomTestStringConvertible {
        let request: @Sendable () throws -> MarkerRequest
        let testDescription: String
    }

    static let cases: [Case] = [
        Case(
            request: { try MarkerRequest(marker: Marker(kind: .end, distance: 123), theme: .night, scale: 2) }, testDescription: "end 123km night @2x"
        ),
        Case(request: { try MarkerRequest(marker: Marker(kind: .start, distance: 0), theme: .day, scale: 1) }, testDescription: "start 0km day @1x"),
        Case(
            request: { try MarkerRequest(marker: Marker(kind: .countdown, distance: 45, unit: .mi), theme: .day, scale: 3) },
            testDescription: "countdown 45mi day @3x"),
        Case(
            request: {
                let parts = [try Marker.Part(kind: .start, distance: 0), try Marker.Part(kind: .end, distance: 8.6, mark: .comma)]
                return try MarkerRequest(marker: Marker(combining: parts), theme: .night, scale: 4)
            }, testDescription: "combined 0km ▶ | 8,6km ⚑ night @4x"),
    ]

    @Test(
        "the same marker gives the same bytes, whatever was drawn before and in which renderer", arguments: ImageFormat.allCases.filter { $0 != .png }
    )
    func deterministic(format: ImageFormat) throws {
        let first = try MarkerRenderer()
        let requests = try Self.cases.map { try $0.request() }
        let before = try requests.map { try first.renderDocument($0, format: format).bytes }
        // Cairo numbers images and groups by every surface the process made: draw more, then again.
        for request in requests { _ = try first.render(request) }
        let after = try requests.map { try first.renderDocument($0, format: format).bytes }
        let fresh = try requests.map { try MarkerRenderer().renderDocument($0, format: format).bytes }
        #expect(before == after)
        #expect(before == fresh)
        #expect(Set(before).count == requests.count)
    }

    @Test("SVG ids are numbered by where they are defined, and every reference follows its id")
    func identifiers() {
        let svg =
            ##"<g id="surface17"><image id="image21"/><use xlink:href="#image21"/><g clip-path="url(#clip3)"><clipPath id="clip3"/>"##
            + ##"<symbol id="glyph0-10"/><symbol id="glyph0-1"/><use xlink:href="#glyph0-1"/><use xlink:href="#glyph0-10"/>"##
            + ##"<path style="fill:rgb(100%,0%,0%)"/><use xlink:href="#elsewhere"/></g>"##
        let expected =
            ##"<g id="surface1"><image id="image1"/><use xlink:href="#image1"/><g clip-path="url(#clip1)"><clipPath id="clip1"/>"##
            + ##"<symbol id="glyph1"/><symbol id="glyph2"/><use xlink:href="#glyph2"/><use xlink:href="#glyph1"/>"##
            + ##"<path style="fill:rgb(100%,0%,0%)"/><use xlink:href="#elsewhere"/></g>"##
        #expect(String(decoding: SVGIdentifiers.numberedInOrder(Array(svg.utf8)), as: UTF8.self) == expected)
    }

    /// What a document's bytes start with.
    static let signatures: [ImageFormat: String] = [.svg: "<?xml", .pdf: "%PDF-"]

    @Test(
        "a document is the PNG's size and anchor, and rasterised (librsvg, poppler) is the PNG but for the text's hinting",
        arguments: ImageFormat.allCases.filter { $0 != .png }, cases)
    func asThePNG(format: ImageFormat, _ example: Case) throws {
        let request = try example.request()
        let renderer = try MarkerRenderer()
        let png = try renderer.render(request)
        let document = try renderer.renderDocument(request, format: format)
        #expect(document.image.fileName.hasSuffix(format.fileExtension) && document.image.fileName.hasPrefix(request.baseName + "-"))
        #expect(document.image.width == png.image.width && document.image.height == png.image.height)
        #expect(document.image.anchor == png.image.anchor)
        #expect(document.bytes.starts(with: Array((Self.signatures[format] ?? "").utf8)))
        // No date: the same marker is the same file tomorrow.
        #expect(!String(decoding: document.bytes, as: UTF8.self).contains("CreationDate"))
        let rasterised = try Self.rasterise(document.bytes, format: format)
        try Self.expectSame(expected: try PNGDecoder.decode(png.png), actual: rasterised, text: try Self.textBox(of: request, renderer: renderer))
    }

    @Test("every golden case, as SVG and as PDF, rasterises to its golden image", arguments: ImageFormat.allCases.filter { $0 != .png })
    func goldens(format: ImageFormat) throws {
        let suite = try GoldenSuite(directory: FilePath(Repository.goldens.path))
        let renderer = try MarkerRenderer()
        for (name, request) in suite.cases {
            let golden = try PNGDecoder.decode([UInt8](try Data(contentsOf: Repository.goldens.appendingPathComponent(name + ".png"))))
            let document = try renderer.renderDocument(request, format: format)
            let rasterised = try Self.rasterise(document.bytes, format: format)
            try Self.expectSame(expected: golden, actual: rasterised, text: try Self.textBox(of: request, renderer: renderer), name: name)
        }
        #expect(suite.cases.count > 150)
    }

    /// Writes `bytes` to a temporary file, has rsvg-convert or pdftocairo rasterise it 1:1, and decodes the PNG.
    static func rasterise(_ bytes: [UInt8], format: ImageFormat) throws -> RGBAImage {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("vector-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let input = folder.appendingPathComponent("marker" + format.fileExtension).path
        let output = folder.appendingPathComponent("marker.png").path
        try Data(bytes).write(to: URL(fileURLWithPath: input))
        if format == .svg {
            _ = try Command.output("/usr/bin/rsvg-convert", ["--format", "png", "--output", output, input])
        } else {
            // One PDF point per pixel, on a transparent page; pdftocairo adds `.png` to the name it is given.
            _ = try Command.output("/usr/bin/pdftocairo", ["-png", "-transp", "-r", "72", "-singlefile", input, String(output.dropLast(4))])
        }
        return try PNGDecoder.decode([UInt8](try Data(contentsOf: URL(fileURLWithPath: output))))
    }

    /// Everything but the text is the PNG at the goldens' threshold, on at most 1% of the pixels:
    /// the pill's corners are arcs in the PNG and Bézier curves in a document, and at @1x their
    /// anti-aliased pixels differ by up to ~15 levels (at most 13 of 1,610 pixels, only at @1x; none from @2x).
    /// The text differs more: the PNG's glyphs are FreeType's, hinted to the pixel grid, where an
    /// SVG's are outlines librsvg fills unhinted, so at pixelmatch's default threshold at most 10%
    /// of the text box's pixels may differ (the most seen: 37 of 468, `10km` @1x, 7.9%; from @2x at most 1.8%).
    static func expectSame(expected: RGBAImage, actual: RGBAImage, text: Rect, name: String = "") throws {
        try #require(actual.width == expected.width && actual.height == expected.height, "\(actual.width)×\(actual.height)")
        let golden = PixelComparison.Options(threshold: 0.02, includeAntiAliasing: false, maximumDifferingShare: 0.01)
        let outside = PixelComparison.compare(expected: cleared(text, in: expected), actual: cleared(text, in: actual), options: golden)
        let outsidePassed = outside.passed
        #expect(outsidePassed, "\(name) outside the text \(outside.differingPixels) of \(outside.totalPixels) pixels differ")
        let whole = PixelComparison.compare(expected: expected, actual: actual, options: .init(threshold: 0.1, includeAntiAliasing: false))
        let textPixels = Int(text.width * text.height)
        #expect(whole.differingPixels * 10 <= textPixels, "\(name) with the text \(whole.differingPixels) of the text's \(textPixels) pixels differ")
    }

    /// The box the labels and icons are drawn in, one pixel wider each way.
    static func textBox(of request: MarkerRequest, renderer: MarkerRenderer) throws -> Rect {
        let layout = try renderer.layout(for: request)
        let top = layout.pill.y + MarkerMetrics.borderWidth * request.scale.factor
        return Rect(
            x: layout.content.lowerBound.rounded(.down) - 1, y: top,
            width: layout.content.upperBound.rounded(.up) - layout.content.lowerBound.rounded(.down) + 2,
            height: layout.pill.height - 2 * MarkerMetrics.borderWidth * request.scale.factor)
    }

    /// `image` with `box` made transparent.
    static func cleared(_ box: Rect, in image: RGBAImage) -> RGBAImage {
        var pixels = image.pixels
        for y in max(0, Int(box.y))..<min(image.height, Int((box.y + box.height).rounded(.up))) {
            for x in max(0, Int(box.x))..<min(image.width, Int((box.x + box.width).rounded(.up))) {
                for channel in 0..<4 { pixels[(y * image.width + x) * 4 + channel] = 0 }
            }
        }
        return RGBAImage(width: image.width, height: image.height, pixels: pixels)
    }
}
