import MarkerPNG

/// libFuzzer target: any bytes deflated by markerpaint's `ScanlineDeflater` (the first three bytes
/// choose the row length, 1 to 4,096, and the pixel size, 1 to 4; the rest is the scanlines), then
/// inflated by libdeflate, which must give back exactly those bytes. AddressSanitizer watches the
/// encoder's raw buffers: a write past any of them fails like a crash.
enum DeflateTarget: FuzzTarget {
    static let name = "deflate"

    /// One deflater for the whole run, as a renderer keeps one: buffers grow and shrink between inputs.
    nonisolated(unsafe) private static var deflater = ScanlineDeflater()
    nonisolated(unsafe) private static let inflater: ZlibInflater = {
        do { return try ZlibInflater() } catch { fatalError("\(error)") }
    }()

    static func fuzz(_ bytes: [UInt8]) {
        guard bytes.count >= 3 else { return }
        let rowBytes = 1 + (Int(bytes[0]) | Int(bytes[1]) << 8) % 4_096
        let pixelBytes = 1 + Int(bytes[2]) % 4
        let input = Array(bytes.dropFirst(3))
        let outcome = input.withUnsafeBytes { input in
            Result { () throws(PNGError) in
                try inflater.inflate(deflater.compress(input, rowBytes: rowBytes, pixelBytes: pixelBytes), count: input.count)
            }
        }
        switch outcome {
        case .success(let inflated): FuzzHarness.require(inflated == input, "the stream inflated to other bytes")
        case .failure(let error): FuzzHarness.require(false, "\(error)")
        }
    }
}
