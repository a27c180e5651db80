/// Byte ranges of one archive: a file, or a URL read with `Range` requests.
public protocol ByteRangeSource: Sendable {
    /// The archive's size in bytes, where known before reading.
    var size: UInt64? { get async throws }
    /// The bytes of each range, in order; a range past the end comes back short.
    func read(_ ranges: [Range<UInt64>]) async throws -> [[UInt8]]
}

/// An archive already in memory, read as a file is: a range past the end comes back short.
public struct MemoryRangeSource: ByteRangeSource {
    public let bytes: [UInt8]

    public init(bytes: [UInt8]) { self.bytes = bytes }

    public var size: UInt64? { UInt64(bytes.count) }

    public func read(_ ranges: [Range<UInt64>]) async throws -> [[UInt8]] {
        let count = UInt64(bytes.count)
        return ranges.map { Array(bytes[Int(min($0.lowerBound, count))..<Int(min($0.upperBound, count))]) }
    }
}

/// Reads the tiles of a PMTiles v3 archive: the header and root once, then for a set of wanted
/// tiles only the leaf directories that hold them and their bytes in merged ranges.
public struct PMTilesReader: Sendable {
    public let header: PMTiles.Header
    /// The JSON metadata, uncompressed.
    public let metadata: [UInt8]
    let root: PMTiles.Directory
    let source: any ByteRangeSource

    /// The most a directory or the metadata may unpack to.
    static let directoryLimit = 64 << 20
    /// How deep leaves may point at leaves.
    static let maximumDepth = 4

    /// Opens the archive: one read of its first 16 KiB, one of its metadata.
    public init(_ source: any ByteRangeSource) async throws {
        self.source = source
        guard let first = try await source.read([0..<UInt64(PMTiles.rootLimit)]).first else { throw PMTiles.Failure("the archive is empty") }
        // Asked after the first read: a URL's size comes with its first answer, not a request of its own.
        let header = try PMTiles.Header(first, archiveSize: try await source.size)
        self.header = header
        guard header.rootOffset + header.rootLength <= UInt64(first.count) else { throw PMTiles.Failure("the PMTiles root directory is cut short") }
        let rootBytes = Array(first[Int(header.rootOffset)..<Int(header.rootOffset + header.rootLength)])
        root = try PMTiles.Directory(serialized: Self.unpack(rootBytes, header.internalCompression))
        if header.metadataLength == 0 {
            metadata = Array("{}".utf8)
        } else {
            guard header.metadataLength <= UInt64(Self.directoryLimit) else { throw PMTiles.Failure("the PMTiles metadata is over 64 MiB") }
            let bytes = try await source.read([header.metadataOffset..<(header.metadataOffset + header.metadataLength)]).first ?? []
            guard UInt64(bytes.count) == header.metadataLength else { throw PMTiles.Failure("the PMTiles metadata is cut short") }
            metadata = try Self.unpack(bytes, header.internalCompression)
        }
    }

    static func unpack(_ bytes: [UInt8], _ compression: PMTiles.Compression) throws(PMTiles.Failure) -> [UInt8] {
        switch compression {
        case .none: return bytes
        case .gzip:
            do { return try Gzip.decompress(bytes, limit: directoryLimit) } catch { throw PMTiles.Failure("a PMTiles directory: \(error)") }
        case .unknown, .brotli, .zstd: throw PMTiles.Failure("PMTiles directories compressed with \(compression) cannot be read; only gzip or none")
        }
    }

    /// Where each wanted tile's bytes lie in the archive (absolute), nil for a tile it lacks. Reads
    /// each leaf directory that holds a wanted tile once, in merged ranges.
    public func locate(_ wanted: [TileAddress]) async throws -> [TileAddress: Range<UInt64>] {
        var found: [TileAddress: Range<UInt64>] = [:]
        // Tiles still to find, each with the leaf to look in (its offset; nil for the root).
        var pending: [(address: TileAddress, id: UInt64, leaf: UInt64?)] = wanted.filter(\.isValid).map { ($0, $0.tileID, nil) }
        var leaves: [UInt64: PMTiles.Directory] = [:]
        for _ in 0...Self.maximumDepth {
            var wantedLeaves: [UInt64: PMTiles.Entry] = [:]
            var next: [(address: TileAddress, id: UInt64, leaf: UInt64?)] = []
            for tile in pending {
                let directory = tile.leaf.map { leaves[$0] } ?? root
                guard let entry = directory?.find(tile.id) else { continue }
                if entry.isLeaf {
                    if leaves[entry.offset] == nil { wantedLeaves[entry.offset] = entry }
                    next.append((tile.address, tile.id, entry.offset))
                } else {
                    found[tile.address] = try Self.absolute(entry, in: header.tileDataOffset, length: header.tileDataLength, what: "tile entry")
                }
            }
            if next.isEmpty { return found }
            // A leaf pointing back at a leaf already read would go round for ever: the depth ends that.
            let toRead = wantedLeaves.values.sorted { $0.offset < $1.offset }
            var ranges: [Range<UInt64>] = []
            for leaf in toRead {
                guard leaf.length <= UInt32(Self.directoryLimit) else { throw PMTiles.Failure("a PMTiles leaf directory of \(leaf.length) bytes") }
                ranges.append(try Self.absolute(leaf, in: header.leavesOffset, length: header.leavesLength, what: "leaf directory"))
            }
            let bytes = try await RangePlan(ranges, slack: 0.05).fetch(from: source)
            for (leaf, data) in zip(toRead, bytes) {
                guard data.count == Int(leaf.length) else { throw PMTiles.Failure("a PMTiles leaf directory is cut short") }
                leaves[leaf.offset] = try PMTiles.Directory(serialized: Self.unpack(data, header.internalCompression))
            }
            pending = next
        }
        throw PMTiles.Failure("the PMTiles leaf directories nest deeper than \(Self.maximumDepth)")
    }

    /// Where `entry`'s bytes lie in the archive, its offset counted from the section at `offset`
    /// of `length` bytes; refused where they would pass the section's end (or 2^64, for a hostile offset).
    static func absolute(_ entry: PMTiles.Entry, in offset: UInt64, length: UInt64, what: String) throws(PMTiles.Failure) -> Range<UInt64> {
        let (end, overflow) = entry.offset.addingReportingOverflow(UInt64(entry.length))
        // The header's sections lie within the archive, so past the section's end is the only way out.
        guard !overflow, end <= length else { throw PMTiles.Failure("a PMTiles \(what) points past its section") }
        return (offset + entry.offset)..<(offset + end)
    }

    /// The bytes of each located tile, read in ranges merged while the bytes read stay within
    /// `slack` of the bytes wanted.
    public func tiles(_ located: [TileAddress: Range<UInt64>], slack: Double = 0.05) async throws -> [TileAddress: [UInt8]] {
        let ordered = located.sorted { $0.value.lowerBound < $1.value.lowerBound }
        let bytes = try await RangePlan(ordered.map(\.value), slack: slack).fetch(from: source)
        var tiles: [TileAddress: [UInt8]] = [:]
        for ((address, range), data) in zip(ordered, bytes) {
            guard data.count == range.count else { throw PMTiles.Failure("tile \(address) is cut short in the archive") }
            tiles[address] = data
        }
        return tiles
    }
}
