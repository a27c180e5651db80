import CPNG
public import MarkerPixels

/// Reads any PNG into straight-alpha RGBA with libspng, exactly, for comparing pixels.
public enum PNGDecoder {
    /// Larger images are refused: nothing markerpaint makes or compares comes near.
    public static let maximumSide = 16_384

    public static func decode(_ bytes: [UInt8]) throws(PNGError) -> RGBAImage {
        guard let context = spng_ctx_new(0) else { throw PNGError("libspng could not start") }
        defer { spng_ctx_free(context) }
        func check(_ code: Int32, _ what: String) throws(PNGError) {
            guard code == 0 else {
                throw PNGError("not a readable PNG (\(what): \(String(cString: spng_strerror(code))))")
            }
        }
        // libspng reads the PNG from this memory until decoding ends, so it must outlive every call.
        let input = UnsafeMutableRawBufferPointer.allocate(byteCount: max(bytes.count, 1), alignment: 1)
        defer { input.deallocate() }
        input.copyBytes(from: bytes)
        try check(spng_set_image_limits(context, UInt32(maximumSide), UInt32(maximumSide)), "limits")
        try check(spng_set_png_buffer(context, input.baseAddress, bytes.count), "buffer")
        var header = spng_ihdr()
        try check(spng_get_ihdr(context, &header), "header")
        let format = Int32(SPNG_FMT_RGBA8.rawValue)
        var size = 0
        try check(spng_decoded_image_size(context, format, &size), "size")
        var pixels = [UInt8](repeating: 0, count: size)
        let code = pixels.withUnsafeMutableBytes { output in
            spng_decode_image(context, output.baseAddress, output.count, format, Int32(SPNG_DECODE_TRNS.rawValue))
        }
        try check(code, "pixels")
        return RGBAImage(width: Int(header.width), height: Int(header.height), pixels: pixels)
    }
}
