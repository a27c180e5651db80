public import MarkerArchive
public import SystemPackage
import Synchronization

/// Byte ranges of a local file, read with `pread`.
public final class FileRangeSource: CountingRangeSource {
    // Read with pread only, which keeps no position: tasks may read at once.
    private let descriptor: FileDescriptor
    private let length: UInt64
    public let name: String
    private let tally = Mutex<(requests: Int, bytes: UInt64)>((0, 0))

    /// Opens `path` for reading.
    public init(_ path: FilePath) throws(PMTiles.Failure) {
        name = path.string
        do {
            descriptor = try FileDescriptor.open(path, .readOnly, options: [.closeOnExec])
            let end = try descriptor.seek(offset: 0, from: .end)
            length = UInt64(end)
        } catch {
            throw PMTiles.Failure("cannot read \(path): \(error)")
        }
    }

    deinit { try? descriptor.close() }

    public var size: UInt64? { length }

    public var counts: (requests: Int, bytes: UInt64) { tally.withLock { $0 } }

    public func read(_ ranges: [Range<UInt64>]) async throws -> [[UInt8]] {
        try ranges.map { range in
            let end = min(range.upperBound, length)
            guard end > range.lowerBound else { return [] }
            var bytes = [UInt8](repeating: 0, count: Int(end - range.lowerBound))
            var done = 0
            while done < bytes.count {
                let read = try bytes.withUnsafeMutableBytes { raw in
                    try descriptor.read(fromAbsoluteOffset: Int64(range.lowerBound) + Int64(done), into: UnsafeMutableRawBufferPointer(rebasing: raw[done...]))
                }
                guard read > 0 else { break }
                done += read
            }
            tally.withLock {
                $0.requests += 1
                $0.bytes += UInt64(done)
            }
            return Array(bytes[0..<done])
        }
    }
}
