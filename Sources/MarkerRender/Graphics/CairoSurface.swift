import CPangoCairo
package import MarkerPixels

/// An ARGB32 or A8 Cairo image surface that this object owns.
package final class CairoSurface {
    let pointer: OpaquePointer
    package let width: Int
    package let height: Int

    /// What each pixel holds: premultiplied colour and alpha, or alpha alone (a mask).
    package enum PixelFormat: Sendable {
        case colour, alpha
    }

    package convenience init(_ format: PixelFormat, width: Int, height: Int) throws(RenderError) {
        try self.init(format: format == .colour ? CAIRO_FORMAT_ARGB32 : CAIRO_FORMAT_A8, width: width, height: height)
    }

    init(format: cairo_format_t, width: Int, height: Int) throws(RenderError) {
        guard width > 0, height > 0, width <= 32_767, height <= 32_767 else {
            throw RenderError("cannot make a \(width)×\(height) pixel surface")
        }
        guard let surface = cairo_image_surface_create(format, Int32(width), Int32(height)) else {
            throw RenderError("Cairo could not allocate a \(width)×\(height) surface")
        }
        let status = cairo_surface_status(surface)
        guard status == CAIRO_STATUS_SUCCESS else {
            cairo_surface_destroy(surface)
            throw RenderError("Cairo could not make a surface: \(CairoStatus.describe(status))")
        }
        self.pointer = surface
        self.width = width
        self.height = height
    }

    deinit { cairo_surface_destroy(pointer) }

    /// Bytes per row, which Cairo may pad beyond `width × bytes per pixel`.
    package var stride: Int { Int(cairo_image_surface_get_stride(pointer)) }

    /// Runs `body` over the pixel memory after flushing Cairo's pending drawing; marks it dirty afterwards.
    package func withPixels<T>(_ body: (UnsafeMutablePointer<UInt8>, _ stride: Int) throws -> T) rethrows -> T {
        cairo_surface_flush(pointer)
        let data = cairo_image_surface_get_data(pointer)!
        defer { cairo_surface_mark_dirty(pointer) }
        return try body(data, stride)
    }
}

/// Turns a Cairo status into words.
enum CairoStatus {
    static func describe(_ status: cairo_status_t) -> String {
        String(cString: cairo_status_to_string(status))
    }

    static func check(_ status: cairo_status_t, _ what: String) throws(RenderError) {
        guard status == CAIRO_STATUS_SUCCESS else {
            throw RenderError("\(what) failed: \(describe(status))")
        }
    }
}

extension CairoSurface {
    /// An ARGB32 surface holding `image`, premultiplied as Cairo wants.
    package convenience init(image: RGBAImage) throws(RenderError) {
        try self.init(format: CAIRO_FORMAT_ARGB32, width: image.width, height: image.height)
        withPixels { data, stride in
            image.pixels.withUnsafeBufferPointer { source in
                for y in 0..<image.height {
                    let row = UnsafeMutableRawPointer(data + y * stride).assumingMemoryBound(to: UInt32.self)
                    for x in 0..<image.width {
                        let i = (y * image.width + x) * 4
                        let alpha = UInt32(source[i + 3])
                        func premultiply(_ channel: UInt8) -> UInt32 { (UInt32(channel) * alpha + 127) / 255 }
                        row[x] =
                            alpha << 24 | premultiply(source[i]) << 16 | premultiply(source[i + 1]) << 8
                            | premultiply(source[i + 2])
                    }
                }
            }
        }
    }
}

extension CairoSurface {
    /// Makes this surface's pixels a copy of `source`'s, which must have the same format and size.
    package func copyPixels(from source: CairoSurface) throws(RenderError) {
        let format = cairo_image_surface_get_format(pointer)
        guard cairo_image_surface_get_format(source.pointer) == format, source.width == width, source.height == height,
            source.stride == stride
        else {
            throw RenderError("cannot copy a \(source.width)×\(source.height) surface onto a \(width)×\(height) one")
        }
        cairo_surface_flush(source.pointer)
        cairo_surface_flush(pointer)
        guard let from = cairo_image_surface_get_data(source.pointer), let to = cairo_image_surface_get_data(pointer) else {
            throw RenderError("Cairo gave no pixel memory to copy")
        }
        to.update(from: from, count: stride * height)
        cairo_surface_mark_dirty(pointer)
    }
}
