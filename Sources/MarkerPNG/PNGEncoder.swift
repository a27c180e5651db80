import CPNG
public import MarkerPixels

/// Writes straight-alpha RGBA images as PNG: as grey+alpha where every pixel is grey (every
/// built-in theme's marker is), two bytes a pixel instead of four, otherwise as RGBA; the zlib
/// stream by `ScanlineDeflater` or libdeflate, framed with libdeflate's CRC-32.
public final class PNGEncoder {
    /// The PNG row filters; `adaptive` picks per row the one with the smallest sum of absolute values.
    public enum Filter: String, Sendable, CaseIterable {
        case none, sub, up, average, paeth, adaptive
    }

    /// How the zlib stream is made.
    public enum Compression: Sendable, Hashable, CustomStringConvertible {
        /// `ScanlineDeflater`: repeats looked for only in the pixel before, the byte before and the
        /// row above. Measured (`markerpaint-bench deflate`, 2,000 markers @2x): ~16 µs a marker
        /// against libdeflate level 1's ~30, for 1.13× its bytes.
        case fast
        /// libdeflate at `level`, 1 (fastest) to 12 (smallest).
        case libdeflate(level: Int)

        public var description: String {
            switch self {
            case .fast: "fast"
            case .libdeflate(let level): "libdeflate level \(level)"
            }
        }
    }

    /// What markerpaint writes with: the fast deflater, with no row filter, which gives the
    /// smallest files of all six filters on these flat images and is as fast as any.
    public static let defaultCompression = Compression.fast
    /// `--small`: libdeflate's slowest and smallest level, a few milliseconds a marker.
    public static let smallCompression = Compression.libdeflate(level: 12)
    public static let defaultFilter = Filter.none

    public let compression: Compression
    public let filter: Filter
    /// libdeflate's compressor, for `.libdeflate` only.
    private let compressor: OpaquePointer?
    /// Buffers kept from one image to the next (an encoder serves one thread): filtered scanlines,
    /// two unfiltered rows for the filters that look back, and the zlib stream.
    package var scanlines: [UInt8] = []
    package var rows: [UInt8] = []
    package var zlib: [UInt8] = []
    private var deflater = ScanlineDeflater()

    public init(compression: Compression = defaultCompression, filter: Filter = defaultFilter) throws(PNGError) {
        switch compression {
        case .fast:
            compressor = nil
        case .libdeflate(let level):
            guard (1...12).contains(level) else { throw PNGError("PNG compression level must be 1 to 12 (got \(level))") }
            guard let compressor = libdeflate_alloc_compressor(Int32(level)) else {
                throw PNGError("libdeflate could not allocate a compressor")
            }
            self.compressor = compressor
        }
        self.compression = compression
        self.filter = filter
    }

    deinit {
        if let compressor { libdeflate_free_compressor(compressor) }
    }

    /// The PNG colour types markerpaint writes (PNG spec section 11.2.2).
    public enum ColourType: UInt8, Sendable {
        case greyAlpha = 4
        case rgba = 6

        /// Bytes per pixel at 8 bits a sample.
        package var bytesPerPixel: Int { self == .greyAlpha ? 2 : 4 }
    }

    /// The colour type `image` is written in: grey+alpha if every pixel has red = green = blue.
    public static func colourType(of image: RGBAImage) -> ColourType {
        image.pixels.withUnsafeBufferPointer { pixels in
            var index = 0
            while index < pixels.count {
                if pixels[index] != pixels[index + 1] || pixels[index] != pixels[index + 2] { return .rgba }
                index += 4
            }
            return .greyAlpha
        }
    }

    /// The PNG file for `image`.
    public func encode(_ image: RGBAImage) throws(PNGError) -> [UInt8] {
        let colourType = Self.colourType(of: image)
        let bytesPerPixel = colourType.bytesPerPixel
        let rowBytes = image.width * bytesPerPixel
        var raw = [UInt8].zeroed(count: (rowBytes + 1) * image.height)
        // Grey rows are packed first (grey, alpha), then filtered like RGBA rows.
        var packed = colourType == .greyAlpha ? [UInt8](repeating: 0, count: rowBytes * image.height) : []
        image.pixels.withUnsafeBufferPointer { source in
            packed.withUnsafeMutableBufferPointer { packed in
                raw.withUnsafeMutableBufferPointer { target in
                    guard let sourceBase = source.baseAddress, let targetBase = target.baseAddress else { return }
                    var rows = sourceBase
                    if colourType == .greyAlpha, let packedBase = packed.baseAddress {
                        for pixel in 0..<(image.width * image.height) {
                            packedBase[2 * pixel] = sourceBase[4 * pixel]
                            packedBase[2 * pixel + 1] = sourceBase[4 * pixel + 3]
                        }
                        rows = UnsafePointer(packedBase)
                    }
                    for y in 0..<image.height {
                        let row = rows + y * rowBytes
                        let above: UnsafePointer<UInt8>? = y > 0 ? row - rowBytes : nil
                        let out = targetBase + y * (rowBytes + 1)
                        Self.filterRow(row, above: above, count: rowBytes, bytesPerPixel: bytesPerPixel, filter: filter, into: out)
                    }
                }
            }
        }
        return try raw.withUnsafeBytes { raw in
            Result { () throws(PNGError) in try frame(filteredRows: raw, width: image.width, height: image.height, colourType: colourType) }
        }.get()
    }

    /// Frames already-filtered scanlines (a filter byte before each row) as a PNG: compressed into
    /// a kept buffer, then copied once into a PNG of exactly its size.
    package func frame(filteredRows raw: UnsafeRawBufferPointer, width: Int, height: Int, colourType: ColourType) throws(PNGError) -> [UInt8] {
        guard let compressor else {
            let stream = deflater.compress(raw, rowBytes: width * colourType.bytesPerPixel + 1, pixelBytes: colourType.bytesPerPixel)
            return Self.png(zlib: stream, width: width, height: height, colourType: colourType)
        }
        let bound = libdeflate_zlib_compress_bound(compressor, raw.count)
        if zlib.count < bound { zlib = [UInt8](repeating: 0, count: bound) }
        return try zlib.withUnsafeMutableBytes { output in
            Result { () throws(PNGError) in
                let size = libdeflate_zlib_compress(compressor, raw.baseAddress, raw.count, output.baseAddress, output.count)
                guard size > 0 else { throw PNGError("libdeflate could not compress a \(width)×\(height) image") }
                return Self.png(zlib: UnsafeRawBufferPointer(rebasing: output[..<size]), width: width, height: height, colourType: colourType)
            }
        }.get()
    }

    /// The signature, IHDR, one IDAT holding `zlib`, and IEND.
    private static func png(zlib: UnsafeRawBufferPointer, width: Int, height: Int, colourType: ColourType) -> [UInt8] {
        var png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        png.reserveCapacity(8 + 25 + 12 + zlib.count + 12)
        var header: [UInt8] = []
        header.appendBigEndian(UInt32(width))
        header.appendBigEndian(UInt32(height))
        header += [8, colourType.rawValue, 0, 0, 0]  // 8-bit, the colour type, deflate, adaptive filtering, no interlace
        header.withUnsafeBytes { appendChunk("IHDR", $0, to: &png) }
        appendChunk("IDAT", zlib, to: &png)
        appendChunk("IEND", UnsafeRawBufferPointer(start: nil, count: 0), to: &png)
        return png
    }

    /// Writes the filter byte and the filtered row at `out` (PNG spec section 9).
    package static func filterRow(
        _ row: UnsafePointer<UInt8>, above: UnsafePointer<UInt8>?, count: Int, bytesPerPixel bpp: Int,
        filter: Filter, into out: UnsafeMutablePointer<UInt8>
    ) {
        func apply(_ type: Filter, _ out: UnsafeMutablePointer<UInt8>) {
            switch type {
            case .none, .adaptive:
                out[0] = 0
                (out + 1).update(from: row, count: count)
            case .sub:
                out[0] = 1
                for i in 0..<count { out[i + 1] = row[i] &- (i >= bpp ? row[i - bpp] : 0) }
            case .up:
                out[0] = 2
                for i in 0..<count { out[i + 1] = row[i] &- (above?[i] ?? 0) }
            case .average:
                out[0] = 3
                for i in 0..<count {
                    let left = Int(i >= bpp ? row[i - bpp] : 0)
                    let up = Int(above?[i] ?? 0)
                    out[i + 1] = row[i] &- UInt8((left + up) / 2)
                }
            case .paeth:
                out[0] = 4
                for i in 0..<count {
                    let left = Int(i >= bpp ? row[i - bpp] : 0)
                    let up = Int(above?[i] ?? 0)
                    let upperLeft = Int(i >= bpp ? (above?[i - bpp] ?? 0) : 0)
                    out[i + 1] = row[i] &- UInt8(Filter.paethPredictor(left: left, up: up, upperLeft: upperLeft))
                }
            }
        }
        guard filter == .adaptive else { return apply(filter, out) }
        // The usual heuristic: the filter whose bytes, read as signed, sum smallest in magnitude.
        var best = Int.max
        let trial = UnsafeMutablePointer<UInt8>.allocate(capacity: count + 1)
        defer { trial.deallocate() }
        for candidate in [Filter.none, .sub, .up, .average, .paeth] {
            apply(candidate, trial)
            var cost = 0
            for i in 1...count { cost += abs(Int(Int8(bitPattern: trial[i]))) }
            if cost < best {
                best = cost
                out.update(from: trial, count: count + 1)
            }
        }
    }

    private static func appendChunk(_ type: StaticString, _ data: UnsafeRawBufferPointer, to png: inout [UInt8]) {
        png.appendBigEndian(UInt32(data.count))
        let typeStart = png.count
        type.withUTF8Buffer { png.append(contentsOf: $0) }
        png.append(contentsOf: data)
        let crc = png.withUnsafeBufferPointer { buffer in
            libdeflate_crc32(0, buffer.baseAddress.map { $0 + typeStart }, png.count - typeStart)
        }
        png.appendBigEndian(crc)
    }
}

extension PNGEncoder.Filter {
    /// Paeth's predictor (PNG spec section 9.4): of the byte to the left, the one above and the one
    /// above-left, the nearest to left + up − upper-left, ties in that order.
    static func paethPredictor(left: Int, up: Int, upperLeft: Int) -> Int {
        let estimate = left + up - upperLeft
        let (toLeft, toUp, toUpperLeft) = (abs(estimate - left), abs(estimate - up), abs(estimate - upperLeft))
        return toLeft <= toUp && toLeft <= toUpperLeft ? left : (toUp <= toUpperLeft ? up : upperLeft)
    }
}

extension [UInt8] {
    mutating func appendBigEndian(_ value: UInt32) {
        append(contentsOf: [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)])
    }
}
