/// A separable Gaussian blur of an 8-bit alpha mask: the CSS `box-shadow` blur, done for real.
package struct ShadowBlur {
    let radius: Int
    /// Normalised weights for offsets -radius...radius.
    let kernel: [Float]

    package init(sigma: Double, radius: Int) {
        self.radius = radius
        let weights = (-radius...radius).map { offset in
            Float(exp(-Double(offset * offset) / (2 * sigma * sigma)))
        }
        let total = weights.reduce(0, +)
        kernel = weights.map { $0 / total }
    }

    /// Blurs `mask` (width × height, `stride` bytes a row) in place; pixels outside count as 0.
    ///
    /// Each output pixel sums its weighted neighbours from the lowest offset up, as a plain loop
    /// over offsets would; the loops run over a whole row at a time so that they vectorize. Pixels
    /// beyond the edge are zeros in a padded row, and adding a zero to a sum of non-negative terms
    /// leaves it exactly as it was, so the result is bit for bit the plain loop's.
    package func apply(to mask: UnsafeMutablePointer<UInt8>, width: Int, height: Int, stride: Int) {
        var padded = [Float](repeating: 0, count: width + 2 * radius)
        var rows = [Float](repeating: 0, count: width * height)
        var sums = [Float](repeating: 0, count: width)
        kernel.withUnsafeBufferPointer { k in
            rows.withUnsafeMutableBufferPointer { horizontal in
                padded.withUnsafeMutableBufferPointer { padded in
                    sums.withUnsafeMutableBufferPointer { sums in
                        for y in 0..<height {
                            let source = mask + y * stride
                            for x in 0..<width { padded[radius + x] = Float(source[x]) }
                            for x in 0..<width { sums[x] = 0 }
                            for tap in 0..<k.count {
                                let weight = k[tap]
                                for x in 0..<width { sums[x] += weight * padded[tap + x] }
                            }
                            for x in 0..<width { horizontal[y * width + x] = sums[x] }
                        }
                    }
                }
            }
            rows.withUnsafeBufferPointer { horizontal in
                sums.withUnsafeMutableBufferPointer { sums in
                    for y in 0..<height {
                        for x in 0..<width { sums[x] = 0 }
                        // Rows beyond the edge would only add zeros: skipped.
                        for offset in max(-radius, -y)...min(radius, height - 1 - y) {
                            let weight = k[offset + radius]
                            let row = (y + offset) * width
                            for x in 0..<width { sums[x] += weight * horizontal[row + x] }
                        }
                        let out = mask + y * stride
                        for x in 0..<width { out[x] = UInt8(min(255, sums[x].rounded())) }
                    }
                }
            }
        }
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
