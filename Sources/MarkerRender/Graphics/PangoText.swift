import CPangoCairo

/// A private Pango font map for one renderer, so renderers on different threads share nothing.
package final class FontMap {
    let pointer: UnsafeMutablePointer<PangoFontMap>

    package init() throws(RenderError) {
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
package final class FontDescription {
    let pointer: OpaquePointer

    /// The weights markerpaint draws text in.
    package enum Weight: Sendable {
        case regular, medium, semibold

        var pango: PangoWeight {
            switch self {
            case .regular: PANGO_WEIGHT_NORMAL
            case .medium: PANGO_WEIGHT_MEDIUM
            case .semibold: PANGO_WEIGHT_SEMIBOLD
            }
        }
    }

    package convenience init(family: String, weight: Weight, absoluteSize: Double) {
        self.init(family: family, weight: weight.pango, absoluteSize: absoluteSize)
    }

    init(family: String, weight: PangoWeight, absoluteSize: Double) {
        pointer = pango_font_description_new()
        pango_font_description_set_family(pointer, family)
        pango_font_description_set_weight(pointer, weight)
        pango_font_description_set_absolute_size(pointer, absoluteSize * Double(PANGO_SCALE))
    }

    deinit { pango_font_description_free(pointer) }
}

/// A Pango context bound to one font map with the font options markerpaint renders with.
package final class TextContext {
    let pointer: OpaquePointer
    let fontMap: FontMap

    package init(fontMap: FontMap) throws(RenderError) {
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
    package func resolvedFace(for font: FontDescription) -> (family: String, weight: Int)? {
        guard let loaded = pango_font_map_load_font(fontMap.pointer, pointer, font.pointer) else { return nil }
        defer { g_object_unref(UnsafeMutableRawPointer(loaded)) }
        guard let description = pango_font_describe(loaded) else { return nil }
        defer { pango_font_description_free(description) }
        guard let family = pango_font_description_get_family(description) else { return nil }
        return (String(cString: family), Int(pango_font_description_get_weight(description).rawValue))
    }
}

/// A one-line Pango layout whose runs carry their own font size and baseline rise.
package final class TextLayout {
    let pointer: OpaquePointer
    let context: TextContext

    package init(context: TextContext) throws(RenderError) {
        guard let layout = pango_layout_new(context.pointer) else {
            throw RenderError("Pango could not make a text layout")
        }
        pointer = layout
        self.context = context
    }

    deinit { g_object_unref(UnsafeMutableRawPointer(pointer)) }

    /// A run of text in one font, raised above the baseline by `rise` points.
    package struct Run {
        package var text: String
        package var font: FontDescription
        package var rise: Double

        package init(text: String, font: FontDescription, rise: Double) {
            self.text = text
            self.font = font
            self.rise = rise
        }
    }

    /// Replaces the layout's text with `runs`, each styled on its own.
    package func setRuns(_ runs: [Run]) {
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

    /// Replaces the layout's text with `text` in `font` as one paragraph (never markup), wrapped
    /// at word boundaries (within a word where one is wider) at `width` points, and cut with "…"
    /// after `maximumLines` lines. Right-to-left text aligns right.
    package func setParagraph(_ text: String, font: FontDescription, width: Double, maximumLines: Int) {
        pango_layout_set_attributes(pointer, nil)
        pango_layout_set_font_description(pointer, font.pointer)
        pango_layout_set_text(pointer, text, Int32(text.utf8.count))
        pango_layout_set_width(pointer, Int32((width * Double(PANGO_SCALE)).rounded(.down)))
        pango_layout_set_wrap(pointer, PANGO_WRAP_WORD_CHAR)
        pango_layout_set_ellipsize(pointer, PANGO_ELLIPSIZE_END)
        pango_layout_set_height(pointer, Int32(-maximumLines))
    }

    /// Sets `text` in `font` on one line of its natural width, for measuring it.
    package func setLine(_ text: String, font: FontDescription) {
        pango_layout_set_attributes(pointer, nil)
        pango_layout_set_font_description(pointer, font.pointer)
        pango_layout_set_width(pointer, -1)
        pango_layout_set_height(pointer, -1)
        pango_layout_set_ellipsize(pointer, PANGO_ELLIPSIZE_NONE)
        pango_layout_set_text(pointer, text, Int32(text.utf8.count))
    }

    /// The height of the layout's first line, in points.
    package var firstLineHeight: Double {
        guard let line = pango_layout_get_line_readonly(pointer, 0) else { return extents.logical.height }
        var ink = PangoRectangle()
        var logical = PangoRectangle()
        pango_layout_line_get_extents(line, &ink, &logical)
        return Double(logical.height) / Double(PANGO_SCALE)
    }

    /// How many lines the layout's text takes, after wrapping and cutting.
    package var lineCount: Int { Int(pango_layout_get_line_count(pointer)) }

    /// Whether the layout's text was cut with "…".
    package var isEllipsized: Bool { pango_layout_is_ellipsized(pointer) != 0 }

    /// The logical and ink boxes of the layout, in points, relative to its top-left corner.
    package var extents: (logical: Rect, ink: Rect) {
        var ink = PangoRectangle()
        var logical = PangoRectangle()
        pango_layout_get_extents(pointer, &ink, &logical)
        return (Rect(pango: logical), Rect(pango: ink))
    }

    /// The distance from the layout's top to the first line's baseline, in points.
    package var baseline: Double { Double(pango_layout_get_baseline(pointer)) / Double(PANGO_SCALE) }

    /// Draws the layout with its top-left corner at the context's current point.
    package func show(in context: CairoContext, atX x: Double, y: Double) {
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
