import CPNG
public import MarkerPixels

/// Reads any PNG into straight-alpha RGBA, exactly, for comparing pixels and building sprites.
///
/// The PNGs markerpaint writes (8-bit RGBA or grey and alpha, not interlaced) are read directly:
/// their chunks checked, their stream inflated by libdeflate in one call, their rows unfiltered.
/// Any other PNG, and any this path finds wrong, goes to libspng, whose verdict stands. A route's
/// sprite sheets read every picture back: through libspng and zlib that was a fifth of the time.
public enum PNGDecoder {
    /// Larger images are refused: nothing markerpaint makes or compares comes near.
    public static let maximumSide = 16_384
    /// The most pixels the direct path reads: it holds the inflated rows beside the image, where
    /// libspng decodes row by row. A picture markerpaint draws is far smaller; a 40-megapixel photo
    /// goes to libspng.
    static let directPixels = 1 << 22

    public static func decode(_ bytes: [UInt8]) throws(PNGError) -> RGBAImage {
        if let image = bytes.withUnsafeBytes({ direct($0) }) { return image }
        return try withLibspng(bytes)
    }

    /// The image, if `bytes` is a whole, valid 8-bit RGBA or grey-and-alpha PNG without interlacing;
    /// nil for anything else, valid or not.
    package static func direct(_ bytes: UnsafeRawBufferPointer) -> RGBAImage? {
        let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        guard bytes.count >= 8, bytes.prefix(8).elementsEqual(signature) else { return nil }
        func number(_ at: Int) -> Int { (0..<4).reduce(0) { $0 << 8 | Int(bytes[at + $1]) } }
        var header: (width: Int, height: Int, channels: Int)?
        var stream: [UInt8] = []
        var streamEnded = false
        var offset = 8
        while true {
            // Length, type, data, CRC of the type and data; every chunk whole within the bytes.
            guard bytes.count - offset >= 12 else { return nil }
            let length = number(offset)
            guard length <= bytes.count - offset - 12 else { return nil }
            let type = number(offset + 4)
            let data = offset + 8
            let crc = UInt32(truncatingIfNeeded: number(data + length))
            guard libdeflate_crc32(0, bytes.baseAddress.map { $0 + offset + 4 }, length + 4) == crc else { return nil }
            offset = data + length + 4
            switch type {
            case 0x4948_4452:  // IHDR: first, once
                guard header == nil, stream.isEmpty, length == 13 else { return nil }
                let (width, height) = (number(data), number(data + 4))
                let (depth, colourType) = (bytes[data + 8], bytes[data + 9])
                let (compression, filter, interlace) = (bytes[data + 10], bytes[data + 11], bytes[data + 12])
                guard (1...maximumSide).contains(width), (1...maximumSide).contains(height), width * height <= directPixels, depth == 8,
                    colourType == 6 || colourType == 4, compression == 0, filter == 0, interlace == 0
                else { return nil }
                header = (width, height, colourType == 6 ? 4 : 2)
            case 0x4944_4154:  // IDAT: after the header, all in a row
                guard header != nil, !streamEnded else { return nil }
                stream.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[data..<data + length]))
            case 0x4945_4E44:  // IEND: the end
                guard let header, !stream.isEmpty else { return nil }
                return image(inflating: stream, header.width, header.height, channels: header.channels)
            default:
                // Any other critical chunk (an upper-case first letter) is one this path does not know.
                guard type >> 24 & 0x20 != 0 else { return nil }
                if !stream.isEmpty { streamEnded = true }
            }
        }
    }

    /// The image from its zlib stream: rows of a filter byte and `channels` bytes a pixel.
    private static func image(inflating stream: [UInt8], _ width: Int, _ height: Int, channels: Int) -> RGBAImage? {
        let rowBytes = width * channels
        let count = (rowBytes + 1) * height
        // One whole zlib stream of exactly the rows' bytes, as the inflater holds any stream to.
        guard let filtered = try? ZlibInflater().inflate(stream, count: count) else { return nil }
        var pixels = [UInt8].zeroed(count: width * height * 4)
        var previous = [UInt8](repeating: 0, count: rowBytes)
        var current = [UInt8](repeating: 0, count: rowBytes)
        let unfiltered = filtered.withUnsafeBufferPointer { filtered in
            pixels.withUnsafeMutableBufferPointer { pixels in
                previous.withUnsafeMutableBufferPointer { previous in
                    current.withUnsafeMutableBufferPointer { current in
                        var (above, row) = (previous, current)
                        for y in 0..<height {
                            let line = UnsafeBufferPointer(rebasing: filtered[(y * (rowBytes + 1) + 1)..<((y + 1) * (rowBytes + 1))])
                            guard unfilter(line, type: filtered[y * (rowBytes + 1)], above: above, bytesPerPixel: channels, into: row) else {
                                return false
                            }
                            let out = UnsafeMutableBufferPointer(rebasing: pixels[(y * width * 4)..<((y + 1) * width * 4)])
                            if channels == 4 {
                                _ = out.update(fromContentsOf: row)
                            } else {
                                for x in 0..<width {
                                    let grey = row[2 * x]
                                    (out[4 * x], out[4 * x + 1], out[4 * x + 2], out[4 * x + 3]) = (grey, grey, grey, row[2 * x + 1])
                                }
                            }
                            swap(&above, &row)
                        }
                        return true
                    }
                }
            }
        }
        return unfiltered ? RGBAImage(width: width, height: height, pixels: pixels) : nil
    }

    /// One row unfiltered (PNG spec section 9), against the row above (zeros above the first);
    /// false for a filter type that does not exist.
    private static func unfilter(
        _ line: UnsafeBufferPointer<UInt8>, type: UInt8, above: UnsafeMutableBufferPointer<UInt8>, bytesPerPixel: Int,
        into row: UnsafeMutableBufferPointer<UInt8>
    ) -> Bool {
        let count = line.count
        switch type {
        case 0:
            for index in 0..<count { row[index] = line[index] }
        case 1:
            for index in 0..<count { row[index] = line[index] &+ (index >= bytesPerPixel ? row[index - bytesPerPixel] : 0) }
        case 2:
            for index in 0..<count { row[index] = line[index] &+ above[index] }
        case 3:
            for index in 0..<count {
                let left = index >= bytesPerPixel ? Int(row[index - bytesPerPixel]) : 0
                row[index] = line[index] &+ UInt8((left + Int(above[index])) / 2)
            }
        case 4:
            for index in 0..<count {
                let left = index >= bytesPerPixel ? Int(row[index - bytesPerPixel]) : 0
                let upperLeft = index >= bytesPerPixel ? Int(above[index - bytesPerPixel]) : 0
                let predictor = PNGEncoder.Filter.paethPredictor(left: left, up: Int(above[index]), upperLeft: upperLeft)
                row[index] = line[index] &+ UInt8(predictor)
            }
        default:
            return false
        }
        return true
    }

    /// Any PNG through libspng.
    package static func withLibspng(_ bytes: [UInt8]) throws(PNGError) -> RGBAImage {
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
