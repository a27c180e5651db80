import CPangoCairo

/// A label set in glyphs, run by run, in Pango units: what `pango_cairo_show_layout` would draw.
struct ShapedLabel {
    /// One font's glyphs, placed from the start of its run.
    struct Run {
        var font: PangoFontReference
        /// From the line's start to the run's start.
        var x: Int32
        /// How far the run sits above the baseline (a raised unit).
        var rise: Int32
        var glyphs: [PangoGlyphInfo]
        var width: Int32 { glyphs.reduce(0) { $0 + $1.geometry.width } }
    }

    var runs: [Run]
    /// The line's logical width, height and baseline (from its top).
    var width: Int32
    var height: Int32
    var baseline: Int32

    /// Reads the first line of `layout`, as Pango's renderer walks it.
    init(layout: TextLayout) {
        let line = pango_layout_get_line_readonly(layout.pointer, 0)
        var runs: [Run] = []
        var x: Int32 = 0
        var node = line?.pointee.runs
        while let current = node {
            node = current.pointee.next
            guard let data = current.pointee.data else { continue }
            let run = data.assumingMemoryBound(to: PangoGlyphItem.self).pointee
            guard let item = run.item, let glyphs = run.glyphs, let font = item.pointee.analysis.font else { continue }
            x += run.start_x_offset
            let shaped = Run(
                font: PangoFontReference(font), x: x, rise: run.y_offset,
                glyphs: Array(UnsafeBufferPointer(start: glyphs.pointee.glyphs, count: Int(glyphs.pointee.num_glyphs))))
            x += shaped.width + run.end_x_offset
            runs.append(shaped)
        }
        var ink = PangoRectangle()
        var logical = PangoRectangle()
        pango_layout_get_extents(layout.pointer, &ink, &logical)
        self.runs = runs
        width = logical.width
        height = logical.height
        baseline = pango_layout_get_baseline(layout.pointer)
    }

    init(runs: [Run], width: Int32, height: Int32, baseline: Int32) {
        self.runs = runs
        self.width = width
        self.height = height
        self.baseline = baseline
    }

    /// Draws the label with the top-left corner of its line at the user-space origin, in the
    /// current source colour, placing every glyph exactly as Pango's Cairo renderer does. Leaves
    /// the last run's font set: callers draw a label inside their own save and restore.
    func show(in context: CairoContext) {
        let cr = context.pointer
        // Pango starts from the current point, which Cairo keeps in fixed point: read it back the same way.
        cairo_move_to(cr, 0, 0)
        var originX = 0.0
        var originY = 0.0
        cairo_get_current_point(cr, &originX, &originY)
        cairo_new_path(cr)
        for run in runs {
            guard let font = run.font.scaledFont else { continue }
            withUnsafeTemporaryAllocation(of: cairo_glyph_t.self, capacity: run.glyphs.count) { glyphs in
                let count = place(run, originX: originX, originY: originY, into: glyphs)
                cairo_set_scaled_font(cr, font)
                cairo_show_glyphs(cr, glyphs.baseAddress, Int32(count))
            }
        }
    }

    /// Each run's Cairo font and glyphs at their places, by the arithmetic of Pango's Cairo renderer.
    func placedRuns(originX: Double, originY: Double) -> [(font: OpaquePointer, glyphs: [cairo_glyph_t])] {
        runs.compactMap { run in
            guard let scaledFont = run.font.scaledFont else { return nil }
            let placed = [cairo_glyph_t](unsafeUninitializedCapacity: run.glyphs.count) { glyphs, count in
                count = place(run, originX: originX, originY: originY, into: glyphs)
            }
            return (scaledFont, placed)
        }
    }

    /// Writes `run`'s drawable glyphs into `out` at their places; returns how many there are.
    private func place(_ run: Run, originX: Double, originY: Double, into out: UnsafeMutableBufferPointer<cairo_glyph_t>) -> Int {
        let scale = Double(PANGO_SCALE)
        let baseX = originX + Double(run.x) / scale
        let baseY = originY + Double(baseline - run.rise) / scale
        var count = 0
        var position: Int32 = 0
        for glyph in run.glyphs {
            defer { position += glyph.geometry.width }
            guard glyph.glyph != PANGO_GLYPH_EMPTY, glyph.glyph & PANGO_GLYPH_UNKNOWN_FLAG == 0 else { continue }
            let y = glyph.geometry.y_offset == 0 ? baseY : baseY + Double(glyph.geometry.y_offset) / scale
            out[count] = cairo_glyph_t(index: UInt(glyph.glyph), x: baseX + Double(position + glyph.geometry.x_offset) / scale, y: y)
            count += 1
        }
        return count
    }
}

/// A reference to a Pango font, held for as long as glyphs shaped in it may be drawn.
final class PangoFontReference {
    let pointer: UnsafeMutablePointer<PangoFont>

    init(_ font: UnsafeMutablePointer<PangoFont>) {
        g_object_ref(UnsafeMutableRawPointer(font))
        pointer = font
    }

    deinit { g_object_unref(UnsafeMutableRawPointer(pointer)) }

    /// The Cairo font Pango draws this font with; owned by the Pango font.
    var scaledFont: OpaquePointer? {
        guard let font = pango_cairo_font_get_scaled_font(OpaquePointer(pointer)),
            cairo_scaled_font_status(font) == CAIRO_STATUS_SUCCESS
        else { return nil }
        return font
    }
}
