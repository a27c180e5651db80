import MarkerArchive
import Synchronization

/// Byte ranges of an archive at an `http(s)` URL, read with `Range` requests, several in flight.
///
/// Refuses at once a server that answers a range with the whole archive (200), a 404, and an
/// archive whose ETag changes between requests (it was replaced while being packed).
public final class HTTPRangeSource: CountingRangeSource {
    public let name: String
    private let fetcher: HTTPFetcher
    /// The archive's size and ETag as the first response gave them.
    private let seen = Mutex<(size: UInt64?, etag: String?)>((nil, nil))

    public init(url: String, fetcher: HTTPFetcher) {
        name = url
        self.fetcher = fetcher
    }

    public var counts: (requests: Int, bytes: UInt64) { fetcher.counts }

    public var size: UInt64? {
        get async throws {
            if let size = seen.withLock({ $0.size }) { return size }
            _ = try await read([0..<1])
            return seen.withLock { $0.size }
        }
    }

    public func read(_ ranges: [Range<UInt64>]) async throws -> [[UInt8]] {
        try await withThrowingTaskGroup(of: (Int, [UInt8]).self) { group in
            for (index, range) in ranges.enumerated() {
                group.addTask { (index, try await self.read(range)) }
            }
            var results = [[UInt8]](repeating: [], count: ranges.count)
            for try await (index, bytes) in group { results[index] = bytes }
            return results
        }
    }

    private func read(_ range: Range<UInt64>) async throws -> [UInt8] {
        guard !range.isEmpty else { return [] }
        let name = self.name
        let response = try await fetcher.get(name, headers: [("Range", "bytes=\(range.lowerBound)-\(range.upperBound - 1)")]) { status, headers in
            switch status {
            case 206: break
            case 200:
                let type = HTTPFetcher.header("content-type", in: headers)?.lowercased() ?? ""
                if type.hasPrefix("text/html") { throw SourceError("\(name): the server answered with a web page (text/html), not a PMTiles archive") }
                throw SourceError("\(name): the server ignores Range (it answered 200 with the whole archive); an archive is read only by ranges")
            case 416: return nil
            case 404: throw SourceError("\(name): 404 Not Found")
            default: throw SourceError("\(name): HTTP \(status)")
            }
            // Content-Range: bytes first-last/total
            let total = HTTPFetcher.header("content-range", in: headers).flatMap { $0.split(separator: "/").last }.flatMap { UInt64($0) }
            let etag = HTTPFetcher.header("etag", in: headers)
            try self.seen.withLock { known in
                if let previous = known.etag, let etag, previous != etag {
                    throw SourceError("\(name): the archive changed while it was being packed (ETag \(previous), now \(etag))")
                }
                if known.etag == nil { known.etag = etag }
                if known.size == nil { known.size = total }
            }
            return Int(range.count)
        }
        if response.status == 416 { return [] }
        guard UInt64(response.body.count) <= UInt64(range.count) else { throw SourceError("\(name): the server sent more than the range asked") }
        return response.body
    }
}
