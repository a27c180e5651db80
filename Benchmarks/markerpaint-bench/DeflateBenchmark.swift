import CPNG
import MarkerRender
import MarkerSpec
import MarkerPNG

/// The zlib step alone: libdeflate at a level against `ScanlineDeflater` on the same scanlines
/// (real markers' grey+alpha rows, taken back out of their PNGs), interleaved runs, every
/// stream inflated again and checked.
struct DeflateBenchmark {
    let scanlines: [(bytes: [UInt8], rowBytes: Int)]

    init(requests: [MarkerRequest]) throws {
        let renderer = try MarkerRenderer()
        let inflater = try ZlibInflater()
        scanlines = try requests.map { request in
            let rendered = try renderer.render(request)
            let rowBytes = 2 * rendered.image.width + 1
            guard rendered.png[25] == PNGEncoder.ColourType.greyAlpha.rawValue else { throw RenderError("a marker was not grey+alpha") }
            return (try inflater.inflate(Self.idat(of: rendered.png), count: rowBytes * rendered.image.height), rowBytes)
        }
    }

    /// The concatenated IDAT data of a PNG markerpaint wrote.
    static func idat(of png: [UInt8]) -> [UInt8] {
        var data: [UInt8] = []
        var offset = 8
        while offset + 12 <= png.count {
            let length = png[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) }
            if png[offset + 4..<offset + 8].elementsEqual("IDAT".utf8) { data += png[offset + 8..<offset + 8 + length] }
            offset += 12 + length
        }
        return data
    }

    /// Mean µs per image and total bytes of libdeflate at `level`.
    func libdeflate(level: Int) throws -> (microseconds: Double, bytes: Int) {
        guard let compressor = libdeflate_alloc_compressor(Int32(level)) else { throw RenderError("libdeflate could not allocate a compressor") }
        defer { libdeflate_free_compressor(compressor) }
        var output = [UInt8](repeating: 0, count: 1 << 20)
        var bytes = 0
        let clock = ContinuousClock()
        let start = clock.now
        for (input, _) in scanlines {
            bytes += input.withUnsafeBytes { input in
                output.withUnsafeMutableBytes { output in
                    libdeflate_zlib_compress(compressor, input.baseAddress, input.count, output.baseAddress, output.count)
                }
            }
        }
        return (RenderBenchmark.micro(clock.now - start, scanlines.count), bytes)
    }

    /// Mean µs per image and total bytes of `ScanlineDeflater`; every stream is inflated and compared.
    func scanline() throws -> (microseconds: Double, bytes: Int) {
        var deflater = ScanlineDeflater()
        var bytes = 0
        var elapsed = Duration.zero
        let clock = ContinuousClock()
        let inflater = try ZlibInflater()
        for (input, rowBytes) in scanlines {
            let inflated = try input.withUnsafeBytes { input in
                let start = clock.now
                let stream = deflater.compress(input, rowBytes: rowBytes, pixelBytes: 2)
                elapsed += clock.now - start
                bytes += stream.count
                return Result { () throws(PNGError) in try inflater.inflate(stream, count: input.count) }
            }.get()
            guard inflated == input else { throw PNGError("ScanlineDeflater's stream inflated to other bytes than its input") }
        }
        return (RenderBenchmark.micro(elapsed, scanlines.count), bytes)
    }
}
