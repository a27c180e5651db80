import CPangoCairo
import MarkerSpec

/// A Cairo drawing context on a surface, owned by this object.
final class CairoContext {
    let pointer: OpaquePointer
    /// Keeps the target (a `CairoSurface` or a `VectorDocument`) alive for as long as the context draws on it.
    private let target: AnyObject

    convenience init(_ surface: CairoSurface) throws(RenderError) {
        try self.init(surface: surface.pointer, owner: surface)
    }

    convenience init(_ document: VectorDocument) throws(RenderError) {
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
    func checkStatus(_ what: String) throws(RenderError) {
        try CairoStatus.check(cairo_status(pointer), what)
    }

    /// Clears the whole surface to transparent and forgets any path, ready for a new drawing.
    func clear() {
        cairo_new_path(pointer)
        cairo_save(pointer)
        cairo_set_operator(pointer, CAIRO_OPERATOR_CLEAR)
        cairo_paint(pointer)
        cairo_restore(pointer)
    }

    func setSource(_ colour: Colour) {
        cairo_set_source_rgba(pointer, colour.red, colour.green, colour.blue, colour.alpha)
    }

    /// Adds a rounded rectangle to the path.
    func addRoundedRectangle(_ rect: Rect, radius: Double) {
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
    func addCircle(centreX: Double, centreY: Double, radius: Double) {
        cairo_new_sub_path(pointer)
        cairo_arc(pointer, centreX, centreY, radius, 0, 2 * Double.pi)
        cairo_close_path(pointer)
    }

    /// Adds a closed polygon to the path.
    func addPolygon(_ points: [(Double, Double)]) {
        guard let first = points.first else { return }
        cairo_new_sub_path(pointer)
        cairo_move_to(pointer, first.0, first.1)
        for point in points.dropFirst() { cairo_line_to(pointer, point.0, point.1) }
        cairo_close_path(pointer)
    }

    func addRectangle(_ rect: Rect) {
        cairo_rectangle(pointer, rect.x, rect.y, rect.width, rect.height)
    }

    func fill() { cairo_fill(pointer) }

    func stroke(width: Double) {
        cairo_set_line_width(pointer, width)
        cairo_stroke(pointer)
    }

    /// Paints `colour` through the alpha of an A8 surface placed at the origin.
    func paint(_ colour: Colour, maskedBy mask: CairoSurface) {
        setSource(colour)
        cairo_mask_surface(pointer, mask.pointer, 0, 0)
    }
}
