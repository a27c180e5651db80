import CPangoCairo
import Foundation
import MarkerFiles
import MarkerPixels
import MarkerSpec
import SystemPackage
import TestSupport
import Testing

@testable import MarkerRender
import MarkerPNG

/// Checks MARKER.md on real Cairo/Pango pixels.
@Suite("Marker rendering")
struct RendererTests {
    static let kinds: [(Marker.Kind, Double)] = [(.start, 0), (.distance, 10), (.end, 123)]

    func request(
        _ kind: Marker.Kind = .distance, _ distance: Double = 10, unit: Marker.Unit = .km,
        theme: Theme = .night, scale: MarkerScale = 2
    ) throws -> MarkerRequest {
        try MarkerRequest(marker: Marker(kind: kind, distance: distance, unit: unit), theme: theme, scale: scale)
    }

    @Test("the same request gives the same bytes and name every time", arguments: MarkerScale.all)
    func deterministic(scale: MarkerScale) throws {
        let first = try MarkerRenderer().render(try request(.end, 123, scale: scale))
        let second = try MarkerRenderer().render(try request(.end, 123, scale: scale))
        #expect(first.png == second.png)
        #expect(first.image.fileName == second.image.fileName)
    }

    @Test("names carry kind, label, theme, scale and ten hex digits of the PNG's SHA-256")
    func name() throws {
        let rendered = try MarkerRenderer().render(try request(.end, 123, theme: .night, scale: 2))
        #expect(rendered.image.fileName.hasPrefix("end-123km-night@2x-"))
        #expect(rendered.image.fileName == "end-123km-night@2x-\(rendered.image.sha256.prefix(10)).png")
        #expect(rendered.image.sha256.count == 64 && rendered.image.sha256.allSatisfy(\.isHexDigit))
    }

    @Test("a different theme, scale, label or palette gives a different name")
    func distinctNames() throws {
        let renderer = try MarkerRenderer()
        let brand = try Theme(
            name: "brand",
            palette: Palette(
                pillFill: Colour(rgb: 0, 90, 200, alpha: 0.9), pillBorder: Palette.night.pillBorder, label: Colour(rgb: 255, 255, 255),
                dotFill: Colour(rgb: 0, 90, 200), dotBorder: Palette.night.dotBorder, shadow: Palette.night.shadow))
        let brandRed = try Theme(
            name: "brand",
            palette: Palette(
                pillFill: Colour(rgb: 200, 0, 0, alpha: 0.9), pillBorder: Palette.night.pillBorder, label: Colour(rgb: 255, 255, 255),
                dotFill: Colour(rgb: 200, 0, 0), dotBorder: Palette.night.dotBorder, shadow: Palette.night.shadow))
        let requests = [
            try request(.end, 123), try request(.end, 123, theme: .day), try request(.end, 123, scale: 3),
            try request(.end, 75), try request(.distance, 123), try request(.end, 123, unit: .mi),
            try request(.end, 123, theme: brand), try request(.end, 123, theme: brandRed),
        ]
        let names = try requests.map { try renderer.render($0).image.fileName }
        #expect(Set(names).count == names.count)
    }

    @Test("a renderer's surface cache keeps at most its limit, dropping the oldest first")
    func surfaceCacheLimit() throws {
        var cache = SurfaceCache<Int>(limit: 2)
        var made = 0
        func surface(_ key: Int) throws -> CairoSurface {
            try cache.surface(for: key) { () throws(RenderError) in
                made += 1
                return try CairoSurface(format: CAIRO_FORMAT_A8, width: 1, height: 1)
            }
        }
        let first = try surface(1)
        _ = try surface(2)
        #expect(try surface(1) === first)
        #expect(made == 2)
        _ = try surface(3)
        _ = try surface(2)
        #expect(made == 3)
        #expect(try surface(1) !== first)
        #expect(made == 4)
    }

    @Test("the canvas holds the whole shadow, with no more than a thin empty margin", arguments: MarkerScale.all)
    func canvasFitsShadow(scale: MarkerScale) throws {
        for (kind, distance) in Self.kinds {
            let (image, anchor) = try MarkerRenderer().draw(try request(kind, distance, scale: scale))
            let visible = (0..<image.height).flatMap { y in (0..<image.width).map { (x: $0, y: y) } }
                .filter { image[$0.x, $0.y].a > 0 }
            let minX = visible.map(\.x).min()!
            let maxX = visible.map(\.x).max()!
            let minY = visible.map(\.y).min()!
            let maxY = visible.map(\.y).max()!
            // Not clipped: the outermost ring is empty. Not wasteful: the shadow comes within 2pt of every edge.
            let slack = Int(2 * scale.factor)
            #expect(minX >= 1 && minY >= 1 && maxX <= image.width - 2 && maxY <= image.height - 2)
            #expect(minX <= slack && minY <= slack && maxX >= image.width - 1 - slack && maxY >= image.height - 1 - slack)
            // Whole-point margins: the anchor is 9pt above the bottom and centred, at every scale.
            #expect(Double(image.height) - anchor.y == 9 * scale.factor && Double(image.width) == 2 * anchor.x)
        }
    }

    @Test(
        "the 1pt border is `scale` pixels wide with its outer edge sharp: whole pixels of border, at 1.5 then one half-covered pixel",
        arguments: MarkerScale.all)
    func crispBorder(scale: MarkerScale) throws {
        let layout = try laidOut(.distance, 10, scale: scale)
        let (image, _) = try MarkerRenderer().draw(try request(.distance, 10, theme: .night, scale: scale))
        let palette = Palette.night
        let fill = opaque(palette.pillFill)
        let borderOverFill = palette.pillBorder.alpha + palette.pillFill.alpha * (1 - palette.pillBorder.alpha)
        let row = Int(layout.pill.y) + Int(layout.pill.height) / 2
        let left = Int(layout.pill.x)
        let whole = Int(scale.factor)
        for x in left..<(left + whole) {
            #expect(abs(Double(image[x, row].a) - borderOverFill * 255) <= 1.0, "border pixel \(x)")
        }
        var inside = left + whole
        if scale.whole == nil {
            // Half border over fill: its alpha lies halfway between the fill's and the border's.
            let half = (borderOverFill + palette.pillFill.alpha) / 2
            #expect(abs(Double(image[inside, row].a) - half * 255) <= 2.0, "half-covered border pixel")
            inside += 1
        }
        #expect(close(image[inside, row], fill), "first pixel inside the border is plain fill")
        #expect(image[left - 1, row].a < 60, "the pixel outside the pill is only shadow")
        // The top edge too, at the pill's centre where the edge is straight.
        let column = Int(layout.pill.x + layout.pill.width / 2)
        #expect(abs(Double(image[column, Int(layout.pill.y)].a) - borderOverFill * 255) <= 1.0)
        #expect(close(image[column, Int(layout.pill.y) + inside - left], fill))
    }

    @Test("as in CSS, the shadow is not painted under the translucent pill", arguments: [Theme.day, .night])
    func noShadowUnderPill(theme: Theme) throws {
        let layout = try laidOut(.distance, 10, scale: 2)
        let (image, _) = try MarkerRenderer().draw(try request(.distance, 10, theme: theme, scale: 2))
        // Just inside the left border, where the shadow cast 1pt down would be densest.
        let inside = image[Int(layout.pill.x) + 2 * 2 + 1, Int(layout.pill.maxY) - 2 * 4]
        #expect(close(inside, opaque(theme.palette.pillFill)))
    }

    @Test("the shadow falls 1pt down: darker below the dot than above the pill", arguments: MarkerScale.all)
    func shadowOffset(scale: MarkerScale) throws {
        let layout = try laidOut(.distance, 10, scale: scale)
        let (image, anchor) = try MarkerRenderer().draw(try request(.distance, 10, scale: scale))
        let gap = Int(2 * scale.factor)
        let above = image[Int(anchor.x + 8 * scale.factor), Int(layout.pill.y) - gap].a
        let dotBottom = Int(layout.dotCentreY + layout.dotRadius)
        let below = image[Int(anchor.x), dotBottom + gap - 1].a
        let pillSide = image[Int(layout.pill.x) - gap, row(layout)].a
        #expect(below > above)
        #expect(pillSide > above)
        #expect(above > 0, "a real blur reaches above the pill")
    }

    @Test(
        "the anchor is the dot's centre, 22pt below the pill top (at 1.5 half a pixel more, so the 9-pixel dot fills whole pixels), centred under the pill",
        arguments: MarkerScale.all)
    func anchor(scale: MarkerScale) throws {
        for (kind, distance) in Self.kinds {
            let layout = try laidOut(kind, distance, scale: scale)
            let (image, anchor) = try MarkerRenderer().draw(try request(kind, distance, scale: scale))
            #expect(anchor.x == layout.pill.x + layout.pill.width / 2)
            #expect(anchor.y == layout.pill.y + (19 * scale.factor).rounded(.up) + 3 * scale.factor)
            // The dot is symmetric about the anchor: compare alpha left and right of it, pixel x
            // with its mirror image 2·anchor − x − 1 (at 1.5 the anchor is a pixel's centre).
            let row = Int(anchor.y)
            let mirror = Int(2 * anchor.x) - 1
            for x in Int(anchor.x - 3 * scale.factor)..<Int(anchor.x) {
                #expect(abs(Int(image[x, row].a) - Int(image[mirror - x, row].a)) <= 1)
            }
            // Crisp: the dot's top and bottom edges fall between whole pixels.
            #expect((layout.dotCentreY - layout.dotRadius).rounded() == layout.dotCentreY - layout.dotRadius)
        }
    }

    @Test(
        "every label fits: 4pt padding each side, 28pt minimum",
        arguments: [
            (Marker.Kind.distance, 0.4, Marker.Unit.km), (.distance, 7.5, .km), (.distance, 12345, .km),
            (.end, 9999, .mi), (.end, 12345, .km), (.start, 0, .mi), (.distance, 1, .km),
        ])
    func labelFits(kind: Marker.Kind, distance: Double, unit: Marker.Unit) throws {
        for scale in MarkerScale.all {
            let layout = try laidOut(kind, distance, unit: unit, scale: scale)
            let s = scale.factor
            #expect(layout.pill.width >= 28 * s)
            #expect(try #require(layout.labelOrigins.first).x >= layout.pill.x + 4 * s - 1)
            #expect(layout.content.upperBound <= layout.pill.maxX - 4 * s + 1)
            for placed in layout.icons { #expect(placed.rect.maxX <= layout.pill.maxX - 4 * s + 1) }
        }
    }

    @Test("a missing font is a clear error naming the Debian package")
    func missingFont() {
        #expect {
            try MarkerRenderer(fontFamily: "NoSuchFamilyXYZ")
        } throws: { error in
            "\(error)".contains("fonts-inter") && "\(error)".contains("NoSuchFamilyXYZ")
        }
    }

    @Test("PNGs round-trip exactly and pass pngcheck")
    func pngRoundTrip() throws {
        let renderer = try MarkerRenderer()
        for (kind, distance) in Self.kinds {
            let request = try request(kind, distance, theme: .day, scale: 3)
            let (image, _) = try renderer.draw(request)
            let rendered = try renderer.render(request)
            #expect(try PNGDecoder.decode(rendered.png) == image)
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("markerpaint-\(UUID())").path
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(atPath: folder) }
            let path = try Folder.open(FilePath(folder)).write(rendered.png, as: rendered.image.fileName)
            let check = Process()
            check.executableURL = URL(fileURLWithPath: "/usr/bin/pngcheck")
            check.arguments = ["-q", path.string]
            try check.run()
            check.waitUntilExit()
            #expect(check.terminationStatus == 0)
            #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == [rendered.image.fileName])
        }
    }

    // MARK: helpers

    private func laidOut(_ kind: Marker.Kind, _ distance: Double, unit: Marker.Unit = .km, scale: MarkerScale) throws -> MarkerLayout {
        try MarkerRenderer().layout(for: try request(kind, distance, unit: unit, scale: scale))
    }

    private func row(_ layout: MarkerLayout) -> Int { Int(layout.pill.y + layout.pill.height / 2) }

    /// Equal but for one 8-bit step per channel, which unpremultiplying may cost.
    private func close(_ a: RGBA, _ b: RGBA) -> Bool {
        abs(Int(a.r) - Int(b.r)) <= 1 && abs(Int(a.g) - Int(b.g)) <= 1 && abs(Int(a.b) - Int(b.b)) <= 1 && abs(Int(a.a) - Int(b.a)) <= 1
    }

    private func opaque(_ colour: Colour) -> RGBA {
        RGBA(
            r: UInt8((colour.red * 255).rounded()), g: UInt8((colour.green * 255).rounded()),
            b: UInt8((colour.blue * 255).rounded()), a: UInt8((colour.alpha * 255).rounded()))
    }
}

@Suite("Fast PNG path against Cairo's writer")
struct PNGPathTests {
    /// A palette with colour in it: its markers cannot be written as grey.
    static let blue: Theme = {
        let palette = Palette(
            pillFill: Colour(rgb: 0, 90, 200, alpha: 0.9), pillBorder: Palette.night.pillBorder, label: Colour(rgb: 255, 255, 255),
            dotFill: Colour(rgb: 0, 90, 200), dotBorder: Palette.night.dotBorder, shadow: Palette.night.shadow)
        return (try? Theme(name: "blue", palette: palette)) ?? .night
    }()

    struct Case: Sendable, CustomTestStringConvertible {
        let kind: Marker.Kind
        let distance: Double
        let theme: Theme
        let scale: MarkerScale
        let compression: PNGEncoder.Compression
        /// PNG colour type 4 (grey+alpha) or 6 (RGBA).
        let colourType: UInt8
        var testDescription: String { "\(kind) \(distance) \(theme.name) @\(scale)x \(compression)" }
    }

    static let cases: [Case] = [
        Case(kind: .start, distance: 0, theme: .day, scale: 1, compression: .fast, colourType: 4),
        Case(kind: .distance, distance: 7.5, theme: .night, scale: 2, compression: .fast, colourType: 4),
        Case(kind: .end, distance: 12345, theme: .day, scale: 3, compression: .libdeflate(level: 12), colourType: 4),
        Case(kind: .end, distance: 123, theme: .night, scale: 2, compression: .libdeflate(level: 12), colourType: 4),
        Case(kind: .end, distance: 123, theme: blue, scale: 2, compression: .fast, colourType: 6),
        Case(kind: .start, distance: 0, theme: blue, scale: 3, compression: .libdeflate(level: 12), colourType: 6),
    ]

    @Test(
        "markerpaint's PNG, grey+alpha for the built-in themes and RGBA with colour, decodes to exactly the pixels Cairo's own writer encodes for the same surface, and passes pngcheck",
        arguments: cases)
    func sameAsCairo(_ example: Case) throws {
        #expect(Self.blue.name == "blue")
        let request = try MarkerRequest(marker: Marker(kind: example.kind, distance: example.distance), theme: example.theme, scale: example.scale)
        let renderer = try MarkerRenderer(compression: example.compression)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("cairo-\(UUID())").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try renderer.writeWithCairo(request, to: folder + "/cairo.png")
        let cairoPNG = [UInt8](try Data(contentsOf: URL(fileURLWithPath: folder + "/cairo.png")))
        let png = try renderer.render(request).png
        // IHDR's colour type: after the signature (8), the chunk's length and type (8), width and height (8) and bit depth (1).
        #expect(png[25] == example.colourType)
        #expect(try PNGDecoder.decode(png) == PNGDecoder.decode(cairoPNG))
        if example.colourType == 4 { #expect(png.count < cairoPNG.count * 3 / 4, "\(png.count) bytes against Cairo's \(cairoPNG.count)") }
        try Data(png).write(to: URL(fileURLWithPath: folder + "/ours.png"))
        #expect(try PNGEncoderTests.pngcheck(folder + "/ours.png"))
    }
}

@Suite("PNG encoder")
struct PNGEncoderTests {
    @Test(
        "every row filter and compression decodes to exactly the image and passes pngcheck, grey+alpha and RGBA",
        arguments: PNGEncoder.Filter.allCases, [PNGEncoder.Compression.fast, .libdeflate(level: 1), .libdeflate(level: 6), .libdeflate(level: 12)])
    func roundTrip(filter: PNGEncoder.Filter, compression: PNGEncoder.Compression) throws {
        for theme in [Theme.night, PNGPathTests.blue] {
            let request = try MarkerRequest(marker: Marker(kind: .end, distance: 123), theme: theme, scale: 2)
            let image = try MarkerRenderer().draw(request).image
            let png = try PNGEncoder(compression: compression, filter: filter).encode(image)
            #expect(png[25] == (theme == .night ? 4 : 6))
            #expect(try PNGDecoder.decode(png) == image)
            let path = FileManager.default.temporaryDirectory.appendingPathComponent("filter-\(UUID()).png").path
            defer { try? FileManager.default.removeItem(atPath: path) }
            try Data(png).write(to: URL(fileURLWithPath: path))
            #expect(try Self.pngcheck(path))
        }
    }

    @Test(
        "a marker encoded straight from Cairo's surface is byte for byte the PNG of its straight RGBA pixels, with every filter, grey and in colour",
        arguments: PNGEncoder.Filter.allCases)
    func surfaceSameAsPixels(filter: PNGEncoder.Filter) throws {
        let renderer = try MarkerRenderer(pngFilter: filter)
        let encoder = try PNGEncoder(filter: filter)
        // Sizes change between markers, so the kept buffers are reused larger and smaller.
        for (kind, distance, theme, scale) in [
            (Marker.Kind.end, 12345.0, Theme.night, 3 as MarkerScale), (.distance, 7.5, .day, 1), (.start, 0, PNGPathTests.blue, 2),
            (.end, 5, .day, .oneAndAHalf),
        ] {
            let request = try MarkerRequest(marker: Marker(kind: kind, distance: distance), theme: theme, scale: scale)
            #expect(try renderer.render(request).png == encoder.encode(renderer.draw(request).image), "\(kind) \(theme.name) @\(scale)x")
        }
    }

    /// Whether Debian's pngcheck finds nothing wrong with the file.
    static func pngcheck(_ path: String) throws -> Bool {
        let check = Process()
        check.executableURL = URL(fileURLWithPath: "/usr/bin/pngcheck")
        check.arguments = ["-q", path]
        try check.run()
        check.waitUntilExit()
        return check.terminationStatus == 0
    }
}

/// The shadow blur, row at a time, against the plain per-pixel loop it replaced.
@Suite("Shadow blur")
struct ShadowBlurTests {
    /// The plain separable Gaussian: each pixel sums its neighbours inside the mask, lowest offset first.
    static func plainBlur(_ mask: [UInt8], width: Int, height: Int, blur: ShadowBlur) -> [UInt8] {
        let radius = blur.radius
        var rows = [Float](repeating: 0, count: width * height)
        for y in 0..<height {
            for x in 0..<width {
                var sum: Float = 0
                for offset in max(-radius, -x)...min(radius, width - 1 - x) {
                    sum += blur.kernel[offset + radius] * Float(mask[y * width + x + offset])
                }
                rows[y * width + x] = sum
            }
        }
        var out = [UInt8](repeating: 0, count: width * height)
        for y in 0..<height {
            for x in 0..<width {
                var sum: Float = 0
                for offset in max(-radius, -y)...min(radius, height - 1 - y) {
                    sum += blur.kernel[offset + radius] * rows[(y + offset) * width + x]
                }
                out[y * width + x] = UInt8(min(255, sum.rounded()))
            }
        }
        return out
    }

    @Test("gives bit for bit the plain loop's mask, for every scale's radius and masks smaller than the kernel", arguments: MarkerScale.all)
    func samePixels(scale: MarkerScale) {
        var generator = SeededGenerator(seed: UInt64(scale.halves))
        let blur = ShadowBlur(sigma: MarkerMetrics.shadowSigma * scale.factor, radius: Int((MarkerMetrics.shadowReach * scale.factor).rounded(.up)))
        for (width, height) in [(1, 1), (3, 2), (blur.radius, blur.radius + 1), (37, 23), (130, 70)] {
            // Random alpha, and a solid shape as a marker's mask has.
            for solid in [false, true] {
                let mask = (0..<(width * height)).map { index in
                    solid ? ((index % width) * 3 > width && (index / width) * 2 > height ? 255 : 0) : UInt8.random(in: 0...255, using: &generator)
                }
                var blurred = mask
                blurred.withUnsafeMutableBufferPointer { blur.apply(to: $0.baseAddress!, width: width, height: height, stride: width) }
                let same = blurred == Self.plainBlur(mask, width: width, height: height, blur: blur)
                #expect(same, "\(width)×\(height), solid: \(solid)")
            }
        }
    }
}
