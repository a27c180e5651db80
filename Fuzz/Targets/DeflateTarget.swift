import CPangoCairo
import MarkerRender

/// libFuzzer target: any bytes deflated by markerpaint's `ScanlineDeflater` (the first three bytes
/// choose the row length, 1 to 4,096, and the pixel size, 1 to 4; the rest is the scanlines), then
/// inflated by libdeflate, which must give back exactly those bytes. AddressSanitizer watches the
/// encoder's raw buffers: a write past any of them fails like a crash.
enum DeflateTarget: FuzzTarget {
    static let name = "deflate"

    /// One deflater for the whole run, as a renderer keeps one: buffers grow and shrink between inputs.
    nonisolated(unsafe) private static var deflater = ScanlineDeflater()

    static func fuzz(_ bytes: [UInt8]) {
        guard bytes.count >= 3 else { return }
        let rowBytes = 1 + (Int(bytes[0]) | Int(bytes[1]) << 8) % 4_096
        let pixelBytes = 1 + Int(bytes[2]) % 4
        let input = Array(bytes.dropFirst(3))
        guard let decompressor = libdeflate_alloc_decompressor() else { fatalError("libdeflate could not allocate a decompressor") }
        defer { libdeflate_free_decompressor(decompressor) }
        var output = [UInt8](repeating: 0, count: input.count + 1)
        var produced = 0
        var consumed = 0
        let result = input.withUnsafeBytes { input in
            let stream = deflater.compress(input, rowBytes: rowBytes, pixelBytes: pixelBytes)
            return output.withUnsafeMutableBytes { output in
                let result = libdeflate_zlib_decompress_ex(
                    decompressor, stream.baseAddress, stream.count, output.baseAddress, output.count, &consumed, &produced)
                FuzzHarness.require(
                    result != LIBDEFLATE_SUCCESS || consumed == stream.count, "\(stream.count - consumed) bytes after the stream's end")
                return result
            }
        }
        FuzzHarness.require(result == LIBDEFLATE_SUCCESS, "the stream did not inflate (libdeflate result \(result.rawValue))")
        FuzzHarness.require(output.prefix(produced).elementsEqual(input) && produced == input.count, "the stream inflated to other bytes")
    }
}
