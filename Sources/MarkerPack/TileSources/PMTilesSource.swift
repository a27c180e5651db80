public import MarkerArchive
/// Tiles from a PMTiles v3 archive read by ranges: a file, or a URL.
public struct PMTilesSource: TileSource {
    public let info: TileSourceInfo
    private let reader: PMTilesReader
    private let source: any CountingRangeSource

    /// The share of the bytes wanted that joined ranges may read beyond them: 4%, so that with the
    /// header, root and metadata the bytes fetched stay within 5% of the tiles and directories.
    static let slack = 0.04
    /// Bytes of tile data read at once: a batch's tiles are handed on before the next is read.
    static let batchBytes: UInt64 = 32 << 20

    /// Opens the archive: its header, root directory and metadata.
    public init(_ source: any CountingRangeSource) async throws {
        self.source = source
        do {
            reader = try await PMTilesReader(source)
        } catch let failure as PMTiles.Failure {
            throw SourceError("\(source.name): \(failure.description)")
        }
        let header = reader.header
        let mean = header.tileContents > 0 ? Double(header.tileDataLength) / Double(header.tileContents) : nil
        info = TileSourceInfo(
            tileType: header.tileType, tileCompression: header.tileCompression, metadata: reader.metadata,
            tileSize: tileSize(inMetadata: reader.metadata), meanTileBytes: mean)
    }

    public func fetch(_ tiles: [TileAddress], deliver: @Sendable (TileAddress, [UInt8]) async throws -> Void) async throws -> FetchCounts {
        let located: [TileAddress: Range<UInt64>]
        do {
            located = try await reader.locate(tiles)
        } catch let failure as PMTiles.Failure {
            throw SourceError("\(source.name): \(failure.description)")
        }
        // Batches in archive order, each read in merged ranges and handed on before the next.
        let ordered = located.sorted { $0.value.lowerBound < $1.value.lowerBound }
        var start = 0
        while start < ordered.count {
            var end = start
            var bytes: UInt64 = 0
            while end < ordered.count, end == start || bytes + UInt64(ordered[end].value.count) <= Self.batchBytes {
                bytes += UInt64(ordered[end].value.count)
                end += 1
            }
            let batch = Dictionary(uniqueKeysWithValues: ordered[start..<end].map { ($0.key, $0.value) })
            let read: [TileAddress: [UInt8]]
            do {
                read = try await reader.tiles(batch, slack: Self.slack)
            } catch let failure as PMTiles.Failure {
                throw SourceError("\(source.name): \(failure.description)")
            }
            for (address, _) in ordered[start..<end] {
                guard let data = read[address] else { continue }
                try await deliver(address, data)
            }
            start = end
        }
        // Everything read from the source, its header, root and metadata included.
        let after = source.counts
        return FetchCounts(absent: Set(tiles).count - located.count, requests: after.requests, bytes: after.bytes)
    }
}

/// A range source that counts its requests and bytes, and names itself in errors.
public protocol CountingRangeSource: ByteRangeSource {
    /// The path or URL, for messages.
    var name: String { get }
    /// Requests made and bytes read so far.
    var counts: (requests: Int, bytes: UInt64) { get }
}
