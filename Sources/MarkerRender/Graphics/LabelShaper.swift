import CPangoCairo
import MarkerSpec

/// Sets labels in glyphs without a Pango layout per label.
///
/// A layout itemizes, resolves fonts, shapes and builds lines for every label: about 55 µs,
/// a quarter of drawing a marker. Every label is the same two runs (a number, then a raised
/// unit in a smaller size), so once per scale and unit a sample label is laid out by Pango and
/// its fonts, unit glyphs and line metrics kept; after that only the number is shaped, through
/// the same `pango_shape_item` call a layout makes, with the sample's item. Tests check that
/// every label comes out glyph for glyph as a Pango layout sets it.
final class LabelShaper {
    /// One scale and unit's fonts, unit glyphs and line metrics, taken from a Pango layout.
    private final class Setting {
        /// The sample's number item: its font and analysis, reused to shape every number.
        let numberItem: UnsafeMutablePointer<PangoItem>
        let sample: ShapedLabel

        init(numberItem: UnsafeMutablePointer<PangoItem>, sample: ShapedLabel) {
            self.numberItem = numberItem
            self.sample = sample
        }

        deinit { pango_item_free(numberItem) }
    }

    private let layout: TextLayout
    private let numberFont: FontDescription
    private let unitFont: FontDescription
    /// A scratch context whose matrix is the scale being set up, as `pango_cairo_update_layout`
    /// sees it when drawing: fonts are loaded for that matrix.
    private let scratch: CairoContext
    private var settings: [SettingKey: Setting] = [:]
    private let glyphs: UnsafeMutablePointer<PangoGlyphString>
    private var paragraph: [UInt8] = []

    private struct SettingKey: Hashable {
        var scale: Double
        var unit: Marker.Unit
    }

    init(layout: TextLayout, numberFont: FontDescription, unitFont: FontDescription) throws(RenderError) {
        self.layout = layout
        self.numberFont = numberFont
        self.unitFont = unitFont
        scratch = try CairoContext(CairoSurface(format: CAIRO_FORMAT_ARGB32, width: 1, height: 1))
        guard let glyphs = pango_glyph_string_new() else { throw RenderError("Pango could not make a glyph string") }
        self.glyphs = glyphs
    }

    deinit { pango_glyph_string_free(glyphs) }

    /// The runs of one label as a Pango layout would set them: the number, then the smaller raised unit.
    func runs(number: String, unit: Marker.Unit) -> [TextLayout.Run] {
        [
            .init(text: number, font: numberFont, rise: 0),
            .init(text: unit.rawValue, font: unitFont, rise: MarkerMetrics.unitRise),
        ]
    }

    /// `number` followed by `unit`, set for drawing at `scale`.
    func shape(number: String, unit: Marker.Unit, scale: Double) throws(RenderError) -> ShapedLabel {
        let setting = try setting(scale: scale, unit: unit)
        let item = setting.numberItem
        paragraph.removeAll(keepingCapacity: true)
        paragraph.append(contentsOf: number.utf8)
        let numberLength = paragraph.count
        paragraph.append(contentsOf: unit.rawValue.utf8)
        item.pointee.offset = 0
        item.pointee.length = Int32(numberLength)
        item.pointee.num_chars = Int32(numberLength)
        paragraph.withUnsafeBufferPointer { text in
            text.withMemoryRebound(to: CChar.self) { characters in
                pango_shape_item(item, characters.baseAddress, Int32(characters.count), nil, glyphs, PANGO_SHAPE_NONE)
            }
        }
        let numberGlyphs = Array(UnsafeBufferPointer(start: glyphs.pointee.glyphs, count: Int(glyphs.pointee.num_glyphs)))
        let sample = setting.sample
        var numberRun = sample.runs[0]
        let sampleNumberWidth = numberRun.width
        numberRun.glyphs = numberGlyphs
        var unitRun = sample.runs[1]
        let numberWidth = numberRun.width
        unitRun.x += numberWidth - sampleNumberWidth
        return ShapedLabel(
            runs: [numberRun, unitRun], width: sample.width + numberWidth - sampleNumberWidth, height: sample.height,
            baseline: sample.baseline)
    }

    /// Lays `layout` out as drawing it at `scale` will: Pango loads fonts for the drawing's matrix.
    func prepare(_ layout: TextLayout, scale: Double) {
        cairo_identity_matrix(scratch.pointer)
        cairo_scale(scratch.pointer, scale, scale)
        pango_cairo_update_layout(scratch.pointer, layout.pointer)
    }

    /// Lays out a sample label at `scale` once, and keeps what every label at that scale shares.
    private func setting(scale: Double, unit: Marker.Unit) throws(RenderError) -> Setting {
        let key = SettingKey(scale: scale, unit: unit)
        if let setting = settings[key] { return setting }
        layout.setRuns(runs(number: "0", unit: unit))
        prepare(layout, scale: scale)
        let sample = ShapedLabel(layout: layout)
        let line = pango_layout_get_line_readonly(layout.pointer, 0)
        guard sample.runs.count == 2, sample.runs.allSatisfy({ $0.font.scaledFont != nil }),
            let first = line?.pointee.runs?.pointee.data?.assumingMemoryBound(to: PangoGlyphItem.self).pointee.item,
            let item = pango_item_copy(first)
        else {
            throw RenderError("Pango did not set a label as a number run and a unit run with drawable fonts")
        }
        let setting = Setting(numberItem: item, sample: sample)
        settings[key] = setting
        return setting
    }
}
