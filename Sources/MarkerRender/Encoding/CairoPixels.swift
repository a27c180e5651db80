import MarkerPNG
import CPangoCairo
package import MarkerPixels

/// `(channel × 255 + alpha / 2) / alpha` for every alpha and premultiplied channel, the rounding
/// Cairo's own PNG writer uses: a table lookup instead of three divisions per pixel.
let unpremultiplied: [UInt8] = {
    var table = [UInt8](repeating: 0, count: 256 * 256)
    for alpha in 1..<256 {
        for channel in 0...alpha {
            table[alpha << 8 | channel] = UInt8((channel * 255 + alpha / 2) / alpha)
        }
    }
    return table
}()

extension CairoSurface {
    /// The surface's premultiplied native-endian ARGB32 as straight RGBA, rounding to nearest.
    package func straightRGBA() -> RGBAImage {
        var image = RGBAImage(width: width, height: height)
        withPixels { data, stride in
            unpremultiplied.withUnsafeBufferPointer { table in
                image.pixels.withUnsafeMutableBufferPointer { output in
                    for y in 0..<height {
                        let row = UnsafeRawPointer(data + y * stride).assumingMemoryBound(to: UInt32.self)
                        var index = y * width * 4
                        for x in 0..<width {
                            let argb = row[x]
                            let alpha = Int(argb >> 24)
                            if alpha != 0 {
                                let base = alpha << 8
                                output[index] = table[base | Int(argb >> 16 & 0xFF)]
                                output[index + 1] = table[base | Int(argb >> 8 & 0xFF)]
                                output[index + 2] = table[base | Int(argb & 0xFF)]
                                output[index + 3] = UInt8(alpha)
                            }
                            index += 4
                        }
                    }
                }
            }
        }
        return image
    }
}

extension CairoSurface {
    /// A surface holding `width` × `height` pixels already in Cairo's own layout (premultiplied
    /// native-endian ARGB32, 4 bytes a pixel, rows packed), copied row by row.
    package convenience init(nativeARGB pixels: UnsafeRawPointer, width: Int, height: Int) throws(RenderError) {
        try self.init(.colour, width: width, height: height)
        withPixels { data, stride in
            for y in 0..<height {
                (data + y * stride).update(from: pixels.advanced(by: y * width * 4).assumingMemoryBound(to: UInt8.self), count: width * 4)
            }
        }
    }
}
