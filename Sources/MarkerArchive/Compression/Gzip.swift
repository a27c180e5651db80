import CZlib

/// gzip, as PMTiles compresses its directories and metadata: zlib behind one stream a call.
public enum Gzip {
    /// What went wrong compressing or decompressing.
    public struct Failure: Error, Sendable, Equatable, CustomStringConvertible {
        public let description: String
    }

    /// `bytes` as one gzip member.
    public static func compress(_ bytes: [UInt8], level: Int32 = 9) throws(Failure) -> [UInt8] {
        let stream = try Stream(deflating: level)
        return try stream.run(bytes, limit: Int.max)
    }

    /// The bytes of the gzip member `bytes`, refused when they would be more than `limit`: a
    /// directory of a few kilobytes may unpack to gigabytes.
    public static func decompress(_ bytes: [UInt8], limit: Int) throws(Failure) -> [UInt8] {
        let stream = try Stream(inflating: ())
        return try stream.run(bytes, limit: limit)
    }

    /// One zlib stream, ended when the wrapper goes.
    private final class Stream {
        private var stream = z_stream()
        private let deflating: Bool

        init(deflating level: Int32) throws(Failure) {
            deflating = true
            guard markerpaint_gzip_deflate_init(&stream, level) == Z_OK else { throw Failure(description: "gzip: zlib could not start compressing") }
        }

        init(inflating: Void) throws(Failure) {
            deflating = false
            guard markerpaint_gzip_inflate_init(&stream) == Z_OK else { throw Failure(description: "gzip: zlib could not start decompressing") }
        }

        deinit {
            if deflating { deflateEnd(&stream) } else { inflateEnd(&stream) }
        }

        /// Feeds all of `input` through and returns what comes out, at most `limit` bytes.
        func run(_ input: [UInt8], limit: Int) throws(Failure) -> [UInt8] {
            var output: [UInt8] = []
            var chunk = [UInt8](repeating: 0, count: 64 * 1024)
            var input = input
            let total = input.count
            var status: Int32 = Z_OK
            let result: Failure? = input.withUnsafeMutableBufferPointer { inputBuffer in
                stream.next_in = inputBuffer.baseAddress
                stream.avail_in = UInt32(total)
                repeat {
                    let produced: Int = chunk.withUnsafeMutableBufferPointer { chunkBuffer in
                        stream.next_out = chunkBuffer.baseAddress
                        stream.avail_out = UInt32(chunkBuffer.count)
                        status = deflating ? deflate(&stream, Z_FINISH) : inflate(&stream, Z_NO_FLUSH)
                        return chunkBuffer.count - Int(stream.avail_out)
                    }
                    guard status == Z_OK || status == Z_STREAM_END || (status == Z_BUF_ERROR && produced > 0) else {
                        return Failure(description: deflating ? "gzip: zlib failed compressing (\(status))" : "gzip: the data is not gzip, or is cut short")
                    }
                    guard output.count + produced <= limit else { return Failure(description: "gzip: the data unpacks to more than \(limit) bytes") }
                    output.append(contentsOf: chunk[0..<produced])
                    // Inflating: input all read and nothing more coming out means the member was cut short.
                    if !deflating, status != Z_STREAM_END, stream.avail_in == 0, produced == 0 {
                        return Failure(description: "gzip: the data is cut short")
                    }
                } while status != Z_STREAM_END
                stream.next_in = nil
                stream.next_out = nil
                return nil
            }
            if let result { throw result }
            return output
        }
    }
}
