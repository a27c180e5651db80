import CPangoCairo

/// A private Pango font map for one renderer, so renderers on different threads share nothing.
final class FontMap {
    let pointer: UnsafeMutablePointer<PangoFontMap>

    init() throws(RenderError) {
        guard let map = pango_cairo_font_map_new() else {
            throw RenderError("Pango could not make a font map")
        }
        pointer = map
    }

    deinit { g_object_unref(UnsafeMutableRawPointer(pointer)) }

    /// The names of every font family fontconfig offers.
    var familyNames: [String] {
        var families: UnsafeMutablePointer<UnsafeMutablePointer<PangoFontFamily>?>?
        var count: Int32 = 0
        pango_font_map_list_families(pointer, &families, &count)
        defer { g_free(families) }
        return (0..<Int(count)).compactMap { index in
            families?[index].flatMap { pango_font_family_get_name($0) }.map { String(cString: $0) }
        }
    }
}

/// A Pango font description (family, weight, absolute size) owned by this object.
final class FontDescription {
    let pointer: OpaquePointer

    init(family: String, weight: PangoWeight, absoluteSize: Double) {
        pointer = pango_font_description_new()
        pango_font_description_set_family(pointer, family)
        pango_font_description_set_weight(pointer, weight)
        pango_font_description_set_absolute_size(pointer, absoluteSize * Double(PANGO_SCALE))
    }

    deinit { pango_font_description_free(pointer) }
}

/// A Pango context bound to one font map with the font options markerpaint renders with.
final class TextContext {
    let pointer: OpaquePointer
    let fontMap: FontMap

    init(fontMap: FontMap) throws(RenderError) {
        guard let context = pango_font_map_create_context(fontMap.pointer) else {
            throw RenderError("Pango could not make a text context")
        }
        pointer = context
        self.fontMap = fontMap
        // Unhinted outlines and metrics: text scales exactly with the marker, and the same
        // input gives the same pixels whatever fontconfig's local hinting preferences are.
        guard let options = cairo_font_options_create() else {
            throw RenderError("Cairo could not make font options")
        }
        defer { cairo_font_options_destroy(options) }
        cairo_font_options_set_antialias(options, CAIRO_ANTIALIAS_GRAY)
        cairo_font_options_set_hint_style(options, CAIRO_HINT_STYLE_NONE)
        cairo_font_options_set_hint_metrics(options, CAIRO_HINT_METRICS_OFF)
        pango_cairo_context_set_font_options(pointer, options)
        pango_context_set_round_glyph_positions(pointer, 0)
    }

    deinit { g_object_unref(UnsafeMutableRawPointer(pointer)) }

    /// The family and weight Pango actually chose for `font`, to catch silent fallbacks.
    func resolvedFace(for font: FontDescription) -> (family: String, weight: Int)? {
        guard let loaded = pango_font_map_load_font(fontMap.pointer, pointer, font.pointer) else { return nil }
        defer { g_object_unref(UnsafeMutableRawPointer(loaded)) }
        guard let description = pango_font_describe(loaded) else { return nil }
        defer { pango_font_description_free(description) }
        guard let family = pango_font_description_get_family(description) else { return nil }
        return (String(cString: family), Int(pango_font_description_get_weight(description).rawValue))
    }
}

/// A one-line Pango layout whose runs carry their own font size and baseline rise.
final class TextLayout {
    let pointer: OpaquePointer
    let context: TextContext

    init(context: TextContext) throws(RenderError) {
        guard let layout = pango_layout_new(context.pointer) else {
            throw RenderError("Pango could not make a text layout")
        }
        pointer = layout
        self.context = context
    }

    deinit { g_object_unref(UnsafeMutableRawPointer(pointer)) }

    /// A run of text in one font, raised above the baseline by `rise` points.
    struct Run {
        var text: String
        var font: FontDescription
        var rise: Double
    }

    /// Replaces the layout's text with `runs`, each styled on its own.
    func setRuns(_ runs: [Run]) {
        let text = runs.map(\.text).joined()
        pango_layout_set_text(pointer, text, Int32(text.utf8.count))
        let attributes = pango_attr_list_new()
        var start = 0
        for run in runs {
            let end = start + run.text.utf8.count
            let fontAttribute = pango_attr_font_desc_new(run.font.pointer)!
            fontAttribute.pointee.start_index = guint(start)
            fontAttribute.pointee.end_index = guint(end)
            pango_attr_list_insert(attributes, fontAttribute)
            if run.rise != 0 {
                let riseAttribute = pango_attr_rise_new(Int32((run.rise * Double(PANGO_SCALE)).rounded()))!
                riseAttribute.pointee.start_index = guint(start)
                riseAttribute.pointee.end_index = guint(end)
                pango_attr_list_insert(attributes, riseAttribute)
            }
            start = end
        }
        pango_layout_set_attributes(pointer, attributes)
        pango_attr_list_unref(attributes)
    }

    /// The logical and ink boxes of the layout, in points, relative to its top-left corner.
    var extents: (logical: Rect, ink: Rect) {
        var ink = PangoRectangle()
        var logical = PangoRectangle()
        pango_layout_get_extents(pointer, &ink, &logical)
        return (Rect(pango: logical), Rect(pango: ink))
    }

    /// The distance from the layout's top to the first line's baseline, in points.
    var baseline: Double { Double(pango_layout_get_baseline(pointer)) / Double(PANGO_SCALE) }

    /// Draws the layout with its top-left corner at the context's current point.
    func show(in context: CairoContext, atX x: Double, y: Double) {
        cairo_move_to(context.pointer, x, y)
        pango_cairo_update_layout(context.pointer, pointer)
        pango_cairo_show_layout(context.pointer, pointer)
    }
}

extension Rect {
    init(pango rectangle: PangoRectangle) {
        let scale = Double(PANGO_SCALE)
        self.init(
            x: Double(rectangle.x) / scale, y: Double(rectangle.y) / scale,
            width: Double(rectangle.width) / scale, height: Double(rectangle.height) / scale)
    }
}
