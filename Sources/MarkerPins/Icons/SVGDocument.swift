import CRSVG
import MarkerRender
import MarkerSpec

/// A user's SVG icon parsed by librsvg, owned by this object: drawn into the icon's square.
///
/// `SVGIcon.check` has refused anything that points outside the file before librsvg sees it; the
/// document is parsed from memory with no base URL, so librsvg itself resolves nothing outside it.
final class SVGDocument {
    private let handle: UnsafeMutablePointer<RsvgHandle>

    /// - Throws: `PhotoError`-like one line (`RenderError`) for bytes librsvg cannot parse.
    init(_ document: [UInt8]) throws(RenderError) {
        var error: UnsafeMutablePointer<GError>? = nil
        let made = document.withUnsafeBufferPointer { rsvg_handle_new_from_data($0.baseAddress, gsize($0.count), &error) }
        guard let made else {
            let message = markerpaint_error_message(error).map { String(cString: $0) } ?? "unreadable"
            if let error { g_error_free(error) }
            throw RenderError("the SVG icon cannot be read: \(message)")
        }
        handle = made
    }

    deinit { g_object_unref(UnsafeMutableRawPointer(handle)) }

    /// Draws the document fitted into `box` (its aspect kept, centred) on `context`.
    func draw(on context: CairoContext, in box: Rect) throws(RenderError) {
        var viewport = RsvgRectangle(x: box.x, y: box.y, width: box.width, height: box.height)
        var error: UnsafeMutablePointer<GError>? = nil
        guard rsvg_handle_render_document(handle, context.cairo, &viewport, &error) != 0 else {
            let message = markerpaint_error_message(error).map { String(cString: $0) } ?? "it does not draw"
            if let error { g_error_free(error) }
            throw RenderError("the SVG icon cannot be drawn: \(message)")
        }
    }
}
