/// A separable Gaussian blur of an 8-bit alpha mask: the CSS `box-shadow` blur, done for real.
struct ShadowBlur {
    let radius: Int
    /// Normalised weights for offsets -radius...radius.
    let kernel: [Float]

    init(sigma: Double, radius: Int) {
        self.radius = radius
        let weights = (-radius...radius).map { offset in
            Float(exp(-Double(offset * offset) / (2 * sigma * sigma)))
        }
        let total = weights.reduce(0, +)
        kernel = weights.map { $0 / total }
    }

    /// Blurs `mask` (width × height, `stride` bytes a row) in place; pixels outside count as 0.
    func apply(to mask: UnsafeMutablePointer<UInt8>, width: Int, height: Int, stride: Int) {
        var rows = [Float](repeating: 0, count: width * height)
        var columns = [Float](repeating: 0, count: width * height)
        kernel.withUnsafeBufferPointer { k in
            rows.withUnsafeMutableBufferPointer { horizontal in
                for y in 0..<height {
                    let source = mask + y * stride
                    for x in 0..<width {
                        var sum: Float = 0
                        let lower = max(-radius, -x)
                        let upper = min(radius, width - 1 - x)
                        var offset = lower
                        while offset <= upper {
                            sum += k[offset + radius] * Float(source[x + offset])
                            offset += 1
                        }
                        horizontal[y * width + x] = sum
                    }
                }
            }
            columns.withUnsafeMutableBufferPointer { vertical in
                rows.withUnsafeBufferPointer { horizontal in
                    for y in 0..<height {
                        let lower = max(-radius, -y)
                        let upper = min(radius, height - 1 - y)
                        for x in 0..<width {
                            var sum: Float = 0
                            var offset = lower
                            while offset <= upper {
                                sum += k[offset + radius] * horizontal[(y + offset) * width + x]
                                offset += 1
                            }
                            vertical[y * width + x] = sum
                        }
                    }
                }
            }
        }
        for y in 0..<height {
            let row = mask + y * stride
            for x in 0..<width {
                row[x] = UInt8(min(255, columns[y * width + x].rounded()))
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
