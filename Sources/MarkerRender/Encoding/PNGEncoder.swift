import CPangoCairo
import MarkerPixels

/// Writes straight-alpha RGBA images as PNG: no filter (these small flat images compress best
/// unfiltered) and libdeflate's zlib stream, framed with libdeflate's CRC-32.
public final class PNGEncoder {
    /// libdeflate level: 1 (fastest) to 12 (smallest).
    public let level: Int
    private let compressor: OpaquePointer

    public init(level: Int = 9) throws(RenderError) {
        guard (1...12).contains(level) else { throw RenderError("PNG compression level must be 1 to 12 (got \(level))") }
        guard let compressor = libdeflate_alloc_compressor(Int32(level)) else {
            throw RenderError("libdeflate could not allocate a compressor")
        }
        self.level = level
        self.compressor = compressor
    }

    deinit { libdeflate_free_compressor(compressor) }

    /// The PNG file for `image`.
    public func encode(_ image: RGBAImage) throws(RenderError) -> [UInt8] {
        let rowBytes = image.width * 4
        var raw = [UInt8](repeating: 0, count: (rowBytes + 1) * image.height)
        image.pixels.withUnsafeBufferPointer { source in
            raw.withUnsafeMutableBufferPointer { target in
                for y in 0..<image.height {
                    // Each row starts with its filter byte, 0 = none, already in place.
                    let destination = UnsafeMutableRawPointer(target.baseAddress! + y * (rowBytes + 1) + 1)
                    destination.copyMemory(from: source.baseAddress! + y * rowBytes, byteCount: rowBytes)
                }
            }
        }
        return try encode(filteredRows: raw, width: image.width, height: image.height)
    }

    /// Frames already-filtered scanlines (a filter byte before each row) as a PNG.
    func encode(filteredRows raw: [UInt8], width: Int, height: Int) throws(RenderError) -> [UInt8] {
        let bound = libdeflate_zlib_compress_bound(compressor, raw.count)
        var compressed = [UInt8](repeating: 0, count: bound)
        let size = raw.withUnsafeBytes { input in
            compressed.withUnsafeMutableBytes { output in
                libdeflate_zlib_compress(compressor, input.baseAddress, input.count, output.baseAddress, output.count)
            }
        }
        guard size > 0 else { throw RenderError("libdeflate could not compress a \(width)×\(height) image") }
        compressed.removeSubrange(size...)

        var png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        png.reserveCapacity(size + 64)
        var header: [UInt8] = []
        header.appendBigEndian(UInt32(width))
        header.appendBigEndian(UInt32(height))
        header += [8, 6, 0, 0, 0]  // 8-bit, RGBA, deflate, adaptive filtering, no interlace
        Self.appendChunk("IHDR", header, to: &png)
        Self.appendChunk("IDAT", compressed, to: &png)
        Self.appendChunk("IEND", [], to: &png)
        return png
    }

    private static func appendChunk(_ type: StaticString, _ data: [UInt8], to png: inout [UInt8]) {
        png.appendBigEndian(UInt32(data.count))
        let typeStart = png.count
        type.withUTF8Buffer { png.append(contentsOf: $0) }
        png.append(contentsOf: data)
        let crc = png.withUnsafeBufferPointer { buffer in
            libdeflate_crc32(0, buffer.baseAddress! + typeStart, png.count - typeStart)
        }
        png.appendBigEndian(crc)
    }
}

extension [UInt8] {
    mutating func appendBigEndian(_ value: UInt32) {
        append(contentsOf: [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)])
    }
}
