import CPangoCairo
package import MarkerSpec

/// A Cairo drawing context on a surface, owned by this object.
package final class CairoContext {
    let pointer: OpaquePointer
    /// Keeps the target (a `CairoSurface` or a `VectorDocument`) alive for as long as the context draws on it.
    private let target: AnyObject

    package convenience init(_ surface: CairoSurface) throws(RenderError) {
        try self.init(surface: surface.pointer, owner: surface)
    }

    package convenience init(_ document: VectorDocument) throws(RenderError) {
        try self.init(surface: document.pointer, owner: document)
    }

    private init(surface: OpaquePointer, owner: AnyObject) throws(RenderError) {
        guard let context = cairo_create(surface) else {
            throw RenderError("Cairo could not make a drawing context")
        }
        let status = cairo_status(context)
        guard status == CAIRO_STATUS_SUCCESS else {
            cairo_destroy(context)
            throw RenderError("Cairo could not make a drawing context: \(CairoStatus.describe(status))")
        }
        self.pointer = context
        self.target = owner
    }

    deinit { cairo_destroy(pointer) }

    /// Throws if any drawing call so far put the context into an error state.
    package func checkStatus(_ what: String) throws(RenderError) {
        try CairoStatus.check(cairo_status(pointer), what)
    }

    /// Clears the whole surface to transparent and forgets any path, ready for a new drawing.
    package func clear() {
        cairo_new_path(pointer)
        cairo_save(pointer)
        cairo_set_operator(pointer, CAIRO_OPERATOR_CLEAR)
        cairo_paint(pointer)
        cairo_restore(pointer)
    }

    package func setSource(_ colour: Colour) {
        cairo_set_source_rgba(pointer, colour.red, colour.green, colour.blue, colour.alpha)
    }

    /// Adds a rounded rectangle to the path.
    package func addRoundedRectangle(_ rect: Rect, radius: Double) {
        let r = min(radius, rect.width / 2, rect.height / 2)
        let (x0, y0, x1, y1) = (rect.x, rect.y, rect.x + rect.width, rect.y + rect.height)
        cairo_new_sub_path(pointer)
        cairo_arc(pointer, x1 - r, y0 + r, r, -Double.pi / 2, 0)
        cairo_arc(pointer, x1 - r, y1 - r, r, 0, Double.pi / 2)
        cairo_arc(pointer, x0 + r, y1 - r, r, Double.pi / 2, Double.pi)
        cairo_arc(pointer, x0 + r, y0 + r, r, Double.pi, 3 * Double.pi / 2)
        cairo_close_path(pointer)
    }

    /// Adds a circle to the path.
    package func addCircle(centreX: Double, centreY: Double, radius: Double) {
        cairo_new_sub_path(pointer)
        cairo_arc(pointer, centreX, centreY, radius, 0, 2 * Double.pi)
        cairo_close_path(pointer)
    }

    /// Adds a closed polygon to the path.
    package func addPolygon(_ points: [(Double, Double)]) {
        guard let first = points.first else { return }
        cairo_new_sub_path(pointer)
        cairo_move_to(pointer, first.0, first.1)
        for point in points.dropFirst() { cairo_line_to(pointer, point.0, point.1) }
        cairo_close_path(pointer)
    }

    package func addRectangle(_ rect: Rect) {
        cairo_rectangle(pointer, rect.x, rect.y, rect.width, rect.height)
    }

    package func fill() { cairo_fill(pointer) }

    package func stroke(width: Double) {
        cairo_set_line_width(pointer, width)
        cairo_stroke(pointer)
    }

    /// Paints `colour` through the alpha of an A8 surface placed at the origin.
    package func paint(_ colour: Colour, maskedBy mask: CairoSurface) {
        setSource(colour)
        cairo_mask_surface(pointer, mask.pointer, 0, 0)
    }
    // Paths of lines, curves and arcs, for drawings beyond the pill: pins, their icons, bubbles.

    package func newSubPath() { cairo_new_sub_path(pointer) }
    package func move(toX x: Double, y: Double) { cairo_move_to(pointer, x, y) }
    package func line(toX x: Double, y: Double) { cairo_line_to(pointer, x, y) }
    package func curve(_ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double, toX x: Double, y: Double) {
        cairo_curve_to(pointer, x1, y1, x2, y2, x, y)
    }
    /// An arc about (`centreX`, `centreY`) from angle `start` to `end` in radians, clockwise on
    /// screen (y down) unless `anticlockwise`.
    package func arc(centreX: Double, centreY: Double, radius: Double, from start: Double, to end: Double, anticlockwise: Bool = false) {
        if anticlockwise {
            cairo_arc_negative(pointer, centreX, centreY, radius, start, end)
        } else {
            cairo_arc(pointer, centreX, centreY, radius, start, end)
        }
    }
    package func closePath() { cairo_close_path(pointer) }

    package func save() { cairo_save(pointer) }
    package func restore() { cairo_restore(pointer) }
    package func translate(x: Double, y: Double) { cairo_translate(pointer, x, y) }
    package func scale(by factor: Double) { cairo_scale(pointer, factor, factor) }

    /// Fills the path, inside by the even-odd rule (a shape's holes cut out) or the non-zero one.
    package func fill(evenOdd: Bool) {
        cairo_set_fill_rule(pointer, evenOdd ? CAIRO_FILL_RULE_EVEN_ODD : CAIRO_FILL_RULE_WINDING)
        cairo_fill(pointer)
        cairo_set_fill_rule(pointer, CAIRO_FILL_RULE_WINDING)
    }

    /// Strokes the path with round caps and joins.
    package func strokeRound(width: Double) {
        cairo_set_line_cap(pointer, CAIRO_LINE_CAP_ROUND)
        cairo_set_line_join(pointer, CAIRO_LINE_JOIN_ROUND)
        cairo_set_line_width(pointer, width)
        cairo_stroke(pointer)
        cairo_set_line_cap(pointer, CAIRO_LINE_CAP_BUTT)
        cairo_set_line_join(pointer, CAIRO_LINE_JOIN_MITER)
    }

    /// Limits drawing to the inside of the path until `restore()`, consuming the path.
    package func clipToPath() { cairo_clip(pointer) }

    /// The Cairo context itself, for a C library that draws with Cairo (librsvg) behind its own wrapper.
    package var cairo: OpaquePointer { pointer }

    /// Paints `surface` scaled by `scale` with its top-left corner at (`x`, `y`) (within the clip,
    /// if one is set).
    package func paint(_ surface: CairoSurface, atX x: Double, y: Double, scale: Double) {
        cairo_save(pointer)
        cairo_translate(pointer, x, y)
        cairo_scale(pointer, scale, scale)
        cairo_set_source_surface(pointer, surface.pointer, 0, 0)
        // Bilinear down to half size; below that (a photo decoded larger than needed), Cairo's box filter.
        cairo_pattern_set_filter(cairo_get_source(pointer), scale >= 0.5 ? CAIRO_FILTER_BILINEAR : CAIRO_FILTER_GOOD)
        cairo_paint(pointer)
        cairo_restore(pointer)
    }
}
