import CPNG

/// gzip (RFC 1952) by libdeflate: what HTTP's `Content-Encoding: gzip` carries.
public final class GzipCompressor {
    private let compressor: OpaquePointer

    /// A compressor at libdeflate's `level` (1 fastest to 12 smallest; 6 is gzip's default).
    public init(level: Int = 6) throws(PNGError) {
        guard let compressor = libdeflate_alloc_compressor(Int32(level)) else {
            throw PNGError("libdeflate could not allocate a compressor at level \(level)")
        }
        self.compressor = compressor
    }

    deinit { libdeflate_free_compressor(compressor) }

    /// `bytes` as one gzip member.
    public func compress(_ bytes: [UInt8]) throws(PNGError) -> [UInt8] {
        let bound = libdeflate_gzip_compress_bound(compressor, bytes.count)
        var output = [UInt8](repeating: 0, count: bound)
        let size = bytes.withUnsafeBytes { input in
            output.withUnsafeMutableBytes { out in
                libdeflate_gzip_compress(compressor, input.baseAddress, input.count, out.baseAddress, out.count)
            }
        }
        guard size > 0 else { throw PNGError("libdeflate could not gzip \(bytes.count) bytes") }
        output.removeSubrange(size...)
        return output
    }
}
