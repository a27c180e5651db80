import CPangoCairo
import MarkerPixels

extension CairoSurface {
    /// The surface's premultiplied native-endian ARGB32 as straight RGBA, rounding to nearest.
    func straightRGBA() -> RGBAImage {
        var image = RGBAImage(width: width, height: height)
        withPixels { data, stride in
            image.pixels.withUnsafeMutableBufferPointer { output in
                for y in 0..<height {
                    let row = UnsafeRawPointer(data + y * stride).assumingMemoryBound(to: UInt32.self)
                    var index = y * width * 4
                    for x in 0..<width {
                        let argb = row[x]
                        let alpha = argb >> 24
                        if alpha != 0 {
                            let half = alpha / 2
                            output[index] = UInt8(((argb >> 16 & 0xFF) * 255 + half) / alpha)
                            output[index + 1] = UInt8(((argb >> 8 & 0xFF) * 255 + half) / alpha)
                            output[index + 2] = UInt8(((argb & 0xFF) * 255 + half) / alpha)
                            output[index + 3] = UInt8(alpha)
                        }
                        index += 4
                    }
                }
            }
        }
        return image
    }
}
