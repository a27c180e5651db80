import CPangoCairo
package import MarkerSpec

/// An SVG or PDF document Cairo draws into, its bytes kept in memory until it is finished.
package final class VectorDocument {
    let pointer: OpaquePointer
    let format: ImageFormat
    /// Where Cairo's stream writes go; the surface holds it unretained, this object keeps it alive.
    private let sink = Sink()

    private final class Sink {
        var bytes: [UInt8] = []
    }

    /// A `width` × `height` document in `format` (`.svg` or `.pdf`): pixels in SVG, points in PDF.
    package init(_ format: ImageFormat, width: Int, height: Int) throws(RenderError) {
        guard width > 0, height > 0, width <= 32_767, height <= 32_767 else {
            throw RenderError("cannot make a \(width)×\(height) \(format.rawValue) document")
        }
        let closure = Unmanaged.passUnretained(sink).toOpaque()
        let write: cairo_write_func_t = { closure, data, length in
            guard let closure, let data else { return CAIRO_STATUS_WRITE_ERROR }
            Unmanaged<Sink>.fromOpaque(closure).takeUnretainedValue().bytes.append(
                contentsOf: UnsafeBufferPointer(start: data, count: Int(length)))
            return CAIRO_STATUS_SUCCESS
        }
        let made: OpaquePointer? =
            switch format {
            case .svg: cairo_svg_surface_create_for_stream(write, closure, Double(width), Double(height))
            case .pdf: cairo_pdf_surface_create_for_stream(write, closure, Double(width), Double(height))
            case .png: nil
            }
        guard let made else { throw RenderError("Cairo makes no \(format.rawValue) document") }
        let status = cairo_surface_status(made)
        guard status == CAIRO_STATUS_SUCCESS else {
            cairo_surface_destroy(made)
            throw RenderError("Cairo could not make a \(format.rawValue) document: \(CairoStatus.describe(status))")
        }
        switch format {
        case .svg:
            cairo_svg_surface_set_document_unit(made, CAIRO_SVG_UNIT_PX)
        case .pdf:
            // A date would make the same marker a new file every second: same input, same bytes, same name.
            cairo_pdf_surface_set_metadata(made, CAIRO_PDF_METADATA_CREATE_DATE, "")
            cairo_pdf_surface_set_metadata(made, CAIRO_PDF_METADATA_MOD_DATE, "")
            cairo_pdf_surface_set_metadata(made, CAIRO_PDF_METADATA_CREATOR, "markerpaint")
        case .png:
            break
        }
        pointer = made
        self.format = format
    }

    deinit { cairo_surface_destroy(pointer) }

    /// Ends the document and returns its bytes; an SVG's ids are numbered in document order (`SVGIdentifiers`).
    package func finish() throws(RenderError) -> [UInt8] {
        cairo_surface_finish(pointer)
        try CairoStatus.check(cairo_surface_status(pointer), "writing the \(format.rawValue) document")
        return format == .svg ? SVGIdentifiers.numberedInOrder(sink.bytes) : sink.bytes
    }
}
