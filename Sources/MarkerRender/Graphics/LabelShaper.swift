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
///
/// Numbers are not even shaped one by one: Inter kerns digit pairs (`70`, `41`, `.1`), but each
/// digit's glyph and advance depend only on the character after it (or on the number's end). So
/// each character is shaped once before each possible follower, and a number is put together
/// from that table. A character outside the table (any other than digits, `.` and `,`) has the
/// number shaped whole.
final class LabelShaper {
    /// One scale and unit's fonts, unit glyphs and line metrics, taken from a Pango layout.
    private final class Setting {
        /// The sample's number item: its font and analysis, reused to shape every number.
        let numberItem: UnsafeMutablePointer<PangoItem>
        let sample: ShapedLabel
        /// The width of the sample's number run, which every label replaces with its own.
        let sampleNumberWidth: Int32
        /// Each table character's glyph as shaped before each follower (the last follower is the
        /// number's end); filled as labels need them.
        var pairs: [PangoGlyphInfo?]

        init(numberItem: UnsafeMutablePointer<PangoItem>, sample: ShapedLabel) {
            self.numberItem = numberItem
            self.sample = sample
            sampleNumberWidth = sample.runs.first?.width ?? 0
            pairs = Array(repeating: nil, count: LabelShaper.tableCharacters.count * (LabelShaper.tableCharacters.count + 1))
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
    /// Numbers that could not be put together from the pair table and were shaped whole.
    private(set) var numbersShapedWhole = 0
    /// Pair-table slots shaped so far.
    private(set) var pairsShaped = 0

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

    /// The characters a number is put together from, glyph by glyph: digits, both decimal marks
    /// and a countdown's minus sign (U+2212).
    static let tableCharacters: [Unicode.Scalar] = Array("0123456789.,\u{2212}".unicodeScalars)

    /// `number` followed by `unit`, set for drawing at `scale`.
    func shape(number: String, unit: Marker.Unit, scale: Double) throws(RenderError) -> ShapedLabel {
        let setting = try setting(scale: scale, unit: unit)
        let numberGlyphs: [PangoGlyphInfo]
        if let fromTable = tableGlyphs(of: number, unit: unit, in: setting) {
            numberGlyphs = fromTable
        } else {
            numbersShapedWhole += 1
            numberGlyphs = shapedGlyphs(of: Array(number.utf8), unit: unit, in: setting)
        }
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

    /// The logical width, in Pango units, of `number` followed by `unit` set at `scale`: the width
    /// of `shape(number:unit:scale:)`'s label, without setting its glyphs down.
    func width(number: String, unit: Marker.Unit, scale: Double) throws(RenderError) -> Int32 {
        let setting = try setting(scale: scale, unit: unit)
        var numberWidth: Int32 = 0
        // From the pair table without a glyph array: a batch measures every picture at every scale.
        var previous: Int? = nil
        var fromTable = true
        for scalar in number.unicodeScalars {
            guard let index = Self.tableIndex(of: scalar) else {
                fromTable = false
                break
            }
            if let previous {
                guard let glyph = pair(previous, before: index, unit: unit, in: setting) else {
                    fromTable = false
                    break
                }
                numberWidth += glyph.geometry.width
            }
            previous = index
        }
        if fromTable, let previous {
            if let glyph = pair(previous, before: Self.tableCharacters.count, unit: unit, in: setting) {
                numberWidth += glyph.geometry.width
            } else {
                fromTable = false
            }
        }
        if !fromTable {
            numberWidth = shapedGlyphs(of: Array(number.utf8), unit: unit, in: setting).reduce(0) { $0 + $1.geometry.width }
        }
        return setting.sample.width - setting.sampleNumberWidth + numberWidth
    }

    /// The position of `scalar` in `tableCharacters`, or nil.
    private static func tableIndex(of scalar: Unicode.Scalar) -> Int? {
        switch scalar {
        case "0"..."9": Int(scalar.value - 0x30)
        case ".": 10
        case ",": 11
        case "\u{2212}": 12
        default: nil
        }
    }

    /// The glyph of table character `index` before `follower` (`tableCharacters.count` for the
    /// number's end), shaped the first time it is asked for; nil if the font sets the pair otherwise
    /// than as one glyph each.
    private func pair(_ index: Int, before follower: Int, unit: Marker.Unit, in setting: Setting) -> PangoGlyphInfo? {
        let characters = Self.tableCharacters
        let slot = index * (characters.count + 1) + follower
        if let glyph = setting.pairs[slot] { return glyph }
        // Shaped with the follower, and then the unit after it as a layout gives HarfBuzz the
        // paragraph: exactly the context the character has in a label.
        var pair = String(characters[index])
        if follower < characters.count { pair.unicodeScalars.append(characters[follower]) }
        let glyphs = shapedGlyphs(of: Array(pair.utf8), unit: unit, in: setting)
        pairsShaped += 1
        guard glyphs.count == pair.unicodeScalars.count else { return nil }
        setting.pairs[slot] = glyphs[0]
        return glyphs[0]
    }

    /// The number's glyphs from the pair table, or nil if it has a character outside the table
    /// or one the font does not set as one glyph.
    private func tableGlyphs(of number: String, unit: Marker.Unit, in setting: Setting) -> [PangoGlyphInfo]? {
        var indices: [Int] = []
        indices.reserveCapacity(number.utf8.count)
        for scalar in number.unicodeScalars {
            guard let index = Self.tableIndex(of: scalar) else { return nil }
            indices.append(index)
        }
        var result: [PangoGlyphInfo] = []
        result.reserveCapacity(indices.count)
        for (position, index) in indices.enumerated() {
            let follower = position + 1 < indices.count ? indices[position + 1] : Self.tableCharacters.count
            guard let glyph = pair(index, before: follower, unit: unit, in: setting) else { return nil }
            result.append(glyph)
        }
        return result
    }

    /// `number`'s glyphs shaped whole, followed by the unit as context, with the sample's item.
    private func shapedGlyphs(of number: [UInt8], unit: Marker.Unit, in setting: Setting) -> [PangoGlyphInfo] {
        let item = setting.numberItem
        paragraph.removeAll(keepingCapacity: true)
        paragraph.append(contentsOf: number)
        let numberLength = paragraph.count
        paragraph.append(contentsOf: unit.rawValue.utf8)
        item.pointee.offset = 0
        item.pointee.length = Int32(numberLength)
        // Characters, not bytes: a UTF-8 continuation byte (10xxxxxx) starts none.
        item.pointee.num_chars = Int32(number.count { $0 & 0xC0 != 0x80 })
        paragraph.withUnsafeBufferPointer { text in
            text.withMemoryRebound(to: CChar.self) { characters in
                pango_shape_item(item, characters.baseAddress, Int32(characters.count), nil, glyphs, PANGO_SHAPE_NONE)
            }
        }
        return Array(UnsafeBufferPointer(start: glyphs.pointee.glyphs, count: Int(glyphs.pointee.num_glyphs)))
    }

    /// Loads the fonts for `scale` and `unit` and shapes every slot of their pair table, so that no
    /// label set afterwards waits for Pango.
    func fillTable(scale: Double, unit: Marker.Unit) throws(RenderError) {
        let characters = Self.tableCharacters.map { String($0) }
        for first in characters {
            _ = try shape(number: first, unit: unit, scale: scale)
            for second in characters { _ = try shape(number: first + second, unit: unit, scale: scale) }
        }
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
