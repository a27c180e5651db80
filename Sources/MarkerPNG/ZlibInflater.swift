import CPNG

/// libdeflate's zlib decompressor, strict: a stream must be whole, end exactly where its bytes end,
/// and give exactly the bytes expected. The tests, the fuzz target and the benchmark check
/// markerpaint's own deflater with it.
package final class ZlibInflater {
    private let decompressor: OpaquePointer

    package init() throws(PNGError) {
        guard let decompressor = libdeflate_alloc_decompressor() else { throw PNGError("libdeflate could not allocate a decompressor") }
        self.decompressor = decompressor
    }

    deinit { libdeflate_free_decompressor(decompressor) }

    /// `stream` inflated, if it is one whole zlib stream of exactly `count` bytes; otherwise why not.
    package func inflate(_ stream: UnsafeRawBufferPointer, count: Int) throws(PNGError) -> [UInt8] {
        // One byte spare, so that a stream longer than `count` fails as too long rather than as cut.
        var output = [UInt8](repeating: 0, count: count + 1)
        var consumed = 0
        var produced = 0
        let result = output.withUnsafeMutableBytes { output in
            libdeflate_zlib_decompress_ex(decompressor, stream.baseAddress, stream.count, output.baseAddress, output.count, &consumed, &produced)
        }
        guard result == LIBDEFLATE_SUCCESS else { throw PNGError("the stream does not inflate (libdeflate result \(result.rawValue))") }
        guard consumed == stream.count else { throw PNGError("the stream has \(stream.count - consumed) bytes after its end") }
        guard produced == count else { throw PNGError("the stream inflates to \(produced) bytes, not \(count)") }
        output.removeLast()
        return output
    }

    /// `stream` inflated, if it is one whole zlib stream of exactly `count` bytes; otherwise why not.
    package func inflate(_ stream: [UInt8], count: Int) throws(PNGError) -> [UInt8] {
        try stream.withUnsafeBytes { stream in Result { () throws(PNGError) in try inflate(stream, count: count) } }.get()
    }
}
