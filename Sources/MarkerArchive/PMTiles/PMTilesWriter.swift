import Crypto
public import SystemPackage

/// Writes a clustered PMTiles v3 archive from tiles given in any order.
///
/// Each tile's bytes go to a scratch file as they come, once per distinct content (SHA-256), so a
/// pack of gigabytes is never held in memory. `finish` lays the archive out as the spec advises:
/// header, root directory, metadata, leaf directories, then the tile data in tile ID order, tiles
/// with the same bytes stored once and consecutive ones as one run.
public struct PMTilesWriter {
    /// What the archive says of its tiles beyond the tiles themselves.
    public struct Description: Sendable {
        public var tileType: PMTiles.TileType
        public var tileCompression: PMTiles.Compression
        /// West, south, east, north in degrees.
        public var bounds: (west: Double, south: Double, east: Double, north: Double)
        public var center: (longitude: Double, latitude: Double, zoom: Int)
        /// The JSON metadata (attribution, vector layers), uncompressed.
        public var metadata: [UInt8]

        public init(
            tileType: PMTiles.TileType, tileCompression: PMTiles.Compression, bounds: (west: Double, south: Double, east: Double, north: Double),
            center: (longitude: Double, latitude: Double, zoom: Int), metadata: [UInt8]
        ) {
            self.tileType = tileType
            self.tileCompression = tileCompression
            self.bounds = bounds
            self.center = center
            self.metadata = metadata
        }
    }

    /// What an archive holds once written.
    public struct Summary: Sendable, Equatable {
        public var bytes: UInt64
        public var addressedTiles: UInt64
        public var tileEntries: UInt64
        public var tileContents: UInt64
        public var leafDirectories: Int
    }

    private let scratch: FileDescriptor
    private var scratchLength: UInt64 = 0
    /// Each distinct content's place in the scratch file.
    private var contents: [(offset: UInt64, length: UInt32)] = []
    private var contentIndex: [SHA256.Digest: Int] = [:]
    /// Each tile: its ID and its content.
    private var tiles: [(id: UInt64, content: Int)] = []
    private var zooms: ClosedRange<Int>? = nil

    /// A writer whose tile bytes wait in `scratch`, an empty file open for reading and writing,
    /// which the caller closes and removes after `finish`.
    public init(scratch: FileDescriptor) {
        self.scratch = scratch
    }

    /// Adds the tile at `address` with `bytes`; each address once.
    public mutating func add(_ address: TileAddress, bytes: [UInt8]) throws(PMTiles.Failure) {
        guard address.isValid else { throw PMTiles.Failure("no tile \(address)") }
        guard bytes.count <= Int(UInt32.max) else { throw PMTiles.Failure("tile \(address) is over 4 GiB") }
        let digest = SHA256.hash(data: bytes)
        let content: Int
        if let known = contentIndex[digest] {
            content = known
        } else {
            do {
                _ = try scratch.writeAll(toAbsoluteOffset: Int64(scratchLength), bytes)
            } catch {
                throw PMTiles.Failure("cannot write the pack's scratch file: \(error)")
            }
            content = contents.count
            contents.append((scratchLength, UInt32(bytes.count)))
            contentIndex[digest] = content
            scratchLength += UInt64(bytes.count)
        }
        tiles.append((address.tileID, content))
        zooms = zooms.map { min($0.lowerBound, address.zoom)...max($0.upperBound, address.zoom) } ?? address.zoom...address.zoom
    }

    /// How many tiles were added.
    public var count: Int { tiles.count }

    /// Writes the archive to `output`, an empty file open for writing.
    public func finish(_ description: Description, to output: FileDescriptor) throws(PMTiles.Failure) -> Summary {
        let tiles = self.tiles.sorted { $0.id < $1.id }
        for index in tiles.indices.dropFirst() where tiles[index].id == tiles[index - 1].id {
            throw PMTiles.Failure("tile \(TileAddress(tileID: tiles[index].id).map { "\($0)" } ?? "?") was added twice")
        }
        // Entries in ID order; each content placed in the tile data where it first comes.
        var placed = [UInt64?](repeating: nil, count: contents.count)
        var order: [Int] = []
        var dataLength: UInt64 = 0
        var entries: [PMTiles.Entry] = []
        for tile in tiles {
            let offset: UInt64
            if let known = placed[tile.content] {
                offset = known
            } else {
                offset = dataLength
                placed[tile.content] = offset
                order.append(tile.content)
                dataLength += UInt64(contents[tile.content].length)
            }
            if var last = entries.last, last.offset == offset, last.tileID + UInt64(last.runLength) == tile.id {
                last.runLength += 1
                entries[entries.count - 1] = last
            } else {
                entries.append(PMTiles.Entry(tileID: tile.id, offset: offset, length: contents[tile.content].length, runLength: 1))
            }
        }

        let (root, leaves, leafCount) = try Self.directories(entries)
        let metadata = try Self.gzip(description.metadata)
        var header = PMTiles.Header()
        header.rootOffset = UInt64(PMTiles.Header.size)
        header.rootLength = UInt64(root.count)
        header.metadataOffset = header.rootOffset + header.rootLength
        header.metadataLength = UInt64(metadata.count)
        header.leavesOffset = header.metadataOffset + header.metadataLength
        header.leavesLength = UInt64(leaves.count)
        header.tileDataOffset = header.leavesOffset + header.leavesLength
        header.tileDataLength = dataLength
        header.addressedTiles = UInt64(tiles.count)
        header.tileEntries = UInt64(entries.count)
        header.tileContents = UInt64(order.count)
        header.clustered = true
        header.internalCompression = .gzip
        header.tileCompression = description.tileCompression
        header.tileType = description.tileType
        header.minimumZoom = UInt8(zooms?.lowerBound ?? 0)
        header.maximumZoom = UInt8(zooms?.upperBound ?? 0)
        func e7(_ degrees: Double) -> Int32 { Int32(max(min((degrees * 1e7).rounded(), Double(Int32.max)), Double(Int32.min))) }
        header.bounds = (e7(description.bounds.west), e7(description.bounds.south), e7(description.bounds.east), e7(description.bounds.north))
        header.center = (e7(description.center.longitude), e7(description.center.latitude))
        header.centerZoom = UInt8(min(max(description.center.zoom, 0), 31))

        do {
            var head = header.serialized()
            head += root
            head += metadata
            head += leaves
            _ = try output.writeAll(toAbsoluteOffset: 0, head)
            // The tile data, in the order placed, copied from the scratch file a megabyte at a time.
            var buffer: [UInt8] = []
            var bufferStart = header.tileDataOffset
            for content in order {
                let (offset, length) = contents[content]
                let start = buffer.count
                buffer.append(contentsOf: repeatElement(0, count: Int(length)))
                let read = try buffer.withUnsafeMutableBytes { raw in
                    try scratch.read(fromAbsoluteOffset: Int64(offset), into: UnsafeMutableRawBufferPointer(rebasing: raw[start..<(start + Int(length))]))
                }
                guard read == Int(length) else { throw PMTiles.Failure("the pack's scratch file was cut short") }
                if buffer.count >= 1 << 20 {
                    _ = try output.writeAll(toAbsoluteOffset: Int64(bufferStart), buffer)
                    bufferStart += UInt64(buffer.count)
                    buffer.removeAll(keepingCapacity: true)
                }
            }
            if !buffer.isEmpty { _ = try output.writeAll(toAbsoluteOffset: Int64(bufferStart), buffer) }
        } catch let failure as PMTiles.Failure {
            throw failure
        } catch {
            throw PMTiles.Failure("cannot write the pack: \(error)")
        }
        return Summary(
            bytes: header.tileDataOffset + dataLength, addressedTiles: header.addressedTiles, tileEntries: header.tileEntries,
            tileContents: header.tileContents, leafDirectories: leafCount)
    }

    /// The root directory and the leaf directories, gzip-compressed: all entries in the root where
    /// it fits within the first 16 KiB with the header, else leaves of at least 4,096 entries,
    /// grown by a fifth until the root of leaves fits (as go-pmtiles lays them out).
    static func directories(_ entries: [PMTiles.Entry]) throws(PMTiles.Failure) -> (root: [UInt8], leaves: [UInt8], leafCount: Int) {
        let target = PMTiles.rootLimit - PMTiles.Header.size
        let whole = try gzip(PMTiles.Directory(entries: entries).serialized())
        if whole.count <= target { return (whole, [], 0) }
        var leafSize = max(4096, entries.count / 3500)
        while true {
            var rootEntries: [PMTiles.Entry] = []
            var leaves: [UInt8] = []
            var start = 0
            while start < entries.count {
                let chunk = Array(entries[start..<min(start + leafSize, entries.count)])
                let leaf = try gzip(PMTiles.Directory(entries: chunk).serialized())
                rootEntries.append(PMTiles.Entry(tileID: chunk[0].tileID, offset: UInt64(leaves.count), length: UInt32(leaf.count), runLength: 0))
                leaves += leaf
                start += leafSize
            }
            let root = try gzip(PMTiles.Directory(entries: rootEntries).serialized())
            if root.count <= target { return (root, leaves, rootEntries.count) }
            leafSize += leafSize / 5
        }
    }

    static func gzip(_ bytes: [UInt8]) throws(PMTiles.Failure) -> [UInt8] {
        do { return try Gzip.compress(bytes) } catch { throw PMTiles.Failure("\(error)") }
    }
}

extension PMTilesWriter {
    /// Writes `tiles` as a new archive at `path` (which must not exist), their bytes waiting in a
    /// new scratch file at `scratch`, removed after. On failure neither file is left.
    public static func write(
        _ tiles: some Sequence<(TileAddress, [UInt8])>, to path: FilePath, scratch: FilePath, description: Description
    ) throws(PMTiles.Failure) -> Summary {
        let scratchFile: FileDescriptor
        do {
            scratchFile = try FileDescriptor.open(
                scratch, .readWrite, options: [.create, .exclusiveCreate, .closeOnExec], permissions: [.ownerReadWrite])
        } catch {
            throw PMTiles.Failure("cannot make the pack's scratch file \(scratch): \(error)")
        }
        defer {
            try? scratchFile.close()
            unlink(scratch)
        }
        var writer = PMTilesWriter(scratch: scratchFile)
        for (address, bytes) in tiles { try writer.add(address, bytes: bytes) }
        let output: FileDescriptor
        do {
            output = try FileDescriptor.open(
                path, .writeOnly, options: [.create, .exclusiveCreate, .closeOnExec], permissions: [.ownerReadWrite, .groupRead, .otherRead])
        } catch {
            throw PMTiles.Failure("cannot write \(path): \(error)")
        }
        do {
            let summary = try writer.finish(description, to: output)
            try closing(output, path)
            return summary
        } catch {
            try? output.close()
            unlink(path)
            throw error
        }
    }

    private static func closing(_ file: FileDescriptor, _ path: FilePath) throws(PMTiles.Failure) {
        do { try file.close() } catch { throw PMTiles.Failure("cannot write \(path): \(error)") }
    }

    private static func unlink(_ path: FilePath) {
        _ = path.withPlatformString { systemUnlink($0) }
    }
}
