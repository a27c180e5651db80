import CPangoCairo
import MarkerSpec
import Testing

@testable import MarkerRender

/// Labels set from fonts kept per scale must be exactly what a Pango layout per label sets and draws.
@Suite("Label shaping")
struct LabelShaperTests {
    /// Every number a label can read: tenths below 10, whole numbers from 10 to 100000; tenths
    /// and thousands with a decimal comma, as other locales write them; countdowns' minus signs.
    static let everyNumber: [String] = {
        var numbers = (0..<100).map { Label.number(for: Double($0) / 10) }
        numbers += (10...100_000).map { String($0) }
        numbers += (1..<100).map { "\($0 / 10),\($0 % 10)" } + ["1,000", "12,345", "99,9", "7,5,5"]
        // Countdowns' minus sign, the table's one character outside ASCII.
        numbers += ["\u{2212}45", "\u{2212}7,5", "\u{2212}0.5", "\u{2212}100000", "\u{2212}10.5"]
        return numbers
    }()

    /// A Pango layout per label, the reference, beside a shaper on the same fonts.
    final class Setter {
        let fontMap: FontMap
        let context: TextContext
        let numberFont = FontDescription(family: MarkerRenderer.fontFamily, weight: PANGO_WEIGHT_MEDIUM, absoluteSize: MarkerMetrics.numberSize)
        let unitFont = FontDescription(family: MarkerRenderer.fontFamily, weight: PANGO_WEIGHT_MEDIUM, absoluteSize: MarkerMetrics.unitSize)
        let reference: TextLayout
        let shaper: LabelShaper

        init() throws {
            fontMap = try FontMap()
            context = try TextContext(fontMap: fontMap)
            reference = try TextLayout(context: context)
            shaper = try LabelShaper(layout: try TextLayout(context: context), numberFont: numberFont, unitFont: unitFont)
        }

        func pango(_ number: String, _ unit: Marker.Unit, scale: Double) -> ShapedLabel {
            reference.setRuns(shaper.runs(number: number, unit: unit))
            shaper.prepare(reference, scale: scale)
            return ShapedLabel(layout: reference)
        }
    }

    /// What decides the pixels: each run's Cairo font, place and glyphs, and the line's metrics.
    struct Placement: Equatable, CustomStringConvertible {
        struct Run: Equatable {
            var font: OpaquePointer?
            var x: Int32
            var rise: Int32
            var glyphs: [[Int64]]
        }

        var runs: [Run]
        var metrics: [Int32]

        init(_ label: ShapedLabel) {
            runs = label.runs.map { run in
                Run(
                    font: run.font.scaledFont, x: run.x, rise: run.rise,
                    glyphs: run.glyphs.map {
                        [Int64($0.glyph), Int64($0.geometry.width), Int64($0.geometry.x_offset), Int64($0.geometry.y_offset)]
                    })
            }
            metrics = [label.width, label.height, label.baseline]
        }

        var description: String { "\(runs.map { "\($0.x)+\($0.rise): \($0.glyphs)" }) \(metrics)" }
    }

    @Test(
        "every number a label can read is set glyph for glyph as a Pango layout sets it",
        arguments: [(2.0, Marker.Unit.km), (1, .mi), (3, .km)])
    func everyLabel(scale: Double, unit: Marker.Unit) throws {
        let setter = try Setter()
        // Every number at @2x km; at the other settings every number below 2,000 and every 7th above.
        let numbers = scale == 2 ? Self.everyNumber : Self.everyNumber.enumerated().filter { $0.offset < 2_000 || $0.offset % 7 == 0 }.map(\.element)
        var mismatches: [String] = []
        for number in numbers {
            let shaped = Placement(try setter.shaper.shape(number: number, unit: unit, scale: scale))
            let pango = Placement(setter.pango(number, unit, scale: scale))
            if shaped != pango, mismatches.count < 5 { mismatches.append("\(number): \(shaped) vs Pango \(pango)") }
        }
        #expect(mismatches.isEmpty, "\(mismatches)")
        #expect(numbers.count > 14_000)
        // All of them from the pair table: the comparison above is of the table, not of whole shaping.
        #expect(setter.shaper.numbersShapedWhole == 0)
    }

    @Test("a number with a character outside the pair table is shaped whole, as Pango sets it")
    func outsideTheTable() throws {
        let setter = try Setter()
        for number in ["-5", "1 2", "½"] {
            let shaped = Placement(try setter.shaper.shape(number: number, unit: .km, scale: 2))
            #expect(shaped == Placement(setter.pango(number, .km, scale: 2)), "\(number)")
        }
        #expect(setter.shaper.numbersShapedWhole == 3)
    }

    @Test("the fonts a sample label was set in are the ones every label is drawn with, at each scale")
    func fontsPerScale() throws {
        let setter = try Setter()
        let fonts = try [1.0, 2, 3].map { try setter.shaper.shape(number: "42", unit: .km, scale: $0).runs.map { $0.font.scaledFont } }
        // Pango loads a font per matrix: three scales, three different Cairo fonts for each run.
        #expect(Set(fonts.map { $0[0] }).count == 3)
        #expect(fonts.allSatisfy { $0[0] != $0[1] })
    }

    @Test("a warmed-up renderer has every pair-table slot shaped once, and labels at any scale and unit shape nothing more")
    func warmUpFillsTheTable() throws {
        let renderer = try MarkerRenderer()
        try renderer.warmUp()
        let slots = LabelShaper.tableCharacters.count * (LabelShaper.tableCharacters.count + 1)
        #expect(renderer.pairsShaped == MarkerRequest.scales.count * Marker.Unit.allCases.count * slots)
        let before = renderer.pairsShaped
        for scale in MarkerRequest.scales {
            for unit in Marker.Unit.allCases {
                for distance in [0.5, 7.5, 10, 123, 4711, 99_999, 100_000] {
                    let request = try MarkerRequest(marker: Marker(kind: .end, distance: distance, unit: unit), theme: .night, scale: scale)
                    _ = try renderer.render(request)
                }
            }
        }
        #expect(renderer.pairsShaped == before)
    }

    static let markers: [(Marker.Kind, Double)] = [
        (.start, 0), (.distance, 0.5), (.distance, 7.5), (.distance, 10), (.distance, 47), (.end, 123.4), (.end, 100_000), (.countdown, 45),
        (.countdown, 0.5),
    ]

    @Test(
        "markers drawn from shaped labels over kept backgrounds are, premultiplied pixel for pixel, those drawn from scratch with a Pango layout per label",
        arguments: MarkerScale.all)
    func samePixels(scale: MarkerScale) throws {
        // A pool's renderers share backgrounds and shadow masks: the second takes the first's.
        let drawing = SharedDrawing()
        let shaped = try MarkerRenderer(fontFamily: MarkerRenderer.fontFamily, sharing: drawing)
        let neighbour = try MarkerRenderer(fontFamily: MarkerRenderer.fontFamily, sharing: drawing)
        let pango = try MarkerRenderer(fontFamily: MarkerRenderer.fontFamily, method: .fromScratch)
        var requests: [MarkerRequest] = []
        for (kind, distance) in Self.markers {
            for theme in [Theme.day, .night] {
                for unit in [Marker.Unit.km, .mi] {
                    requests.append(try MarkerRequest(marker: Marker(kind: kind, distance: distance, unit: unit), theme: theme, scale: scale))
                }
            }
        }
        for parts in [
            [(Marker.Kind.start, 0.0), (.end, 8.6)], [(.end, 75), (.start, 75)], [(.start, 0), (.end, 12345), (.start, 0), (.end, 99999)],
        ] {
            let combined = try Marker(combining: parts.map { try Marker.Part(kind: $0.0, distance: $0.1) })
            requests.append(try MarkerRequest(marker: combined, theme: .night, scale: scale))
        }
        // Twice over, so the second pass draws over backgrounds kept from markers of other labels,
        // and a third by the neighbour, over backgrounds the first renderer made.
        let passes = [(shaped, requests), (shaped, requests.reversed()), (neighbour, requests)]
        for (renderer, requests) in passes {
            for request in requests {
                let (drawn, layout) = try renderer.drawSurface(request)
                let drawnPixels = Self.premultipliedPixels(of: drawn)
                let (fromPango, pangoLayout) = try pango.drawSurface(request)
                #expect(layout.anchor == pangoLayout.anchor)
                // A Bool, so that a failure names the marker instead of printing every byte.
                let identical = drawnPixels == Self.premultipliedPixels(of: fromPango)
                #expect(identical, "\(request.marker) @\(scale)x \(request.theme)")
            }
        }
        #expect(drawing.backgrounds.hits > 0)
    }

    /// Every row of `surface`'s ARGB32 pixels, without the stride's padding.
    static func premultipliedPixels(of surface: CairoSurface) -> [UInt8] {
        surface.withPixels { data, stride in
            (0..<surface.height).flatMap { row in UnsafeBufferPointer(start: data + row * stride, count: surface.width * 4) }
        }
    }
}
