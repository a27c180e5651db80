extension PMTiles {
    /// The archive's first 127 bytes: where each section is, what the tiles are, and the area.
    public struct Header: Sendable, Equatable {
        public static let size = 127
        static let magic: [UInt8] = Array("PMTiles".utf8)

        public var rootOffset: UInt64 = 0
        public var rootLength: UInt64 = 0
        public var metadataOffset: UInt64 = 0
        public var metadataLength: UInt64 = 0
        public var leavesOffset: UInt64 = 0
        public var leavesLength: UInt64 = 0
        public var tileDataOffset: UInt64 = 0
        public var tileDataLength: UInt64 = 0
        public var addressedTiles: UInt64 = 0
        public var tileEntries: UInt64 = 0
        public var tileContents: UInt64 = 0
        public var clustered = false
        public var internalCompression = Compression.gzip
        public var tileCompression = Compression.unknown
        public var tileType = TileType.unknown
        public var minimumZoom: UInt8 = 0
        public var maximumZoom: UInt8 = 0
        /// West, south, east, north in ten-millionths of a degree.
        public var bounds: (west: Int32, south: Int32, east: Int32, north: Int32) = (0, 0, 0, 0)
        public var centerZoom: UInt8 = 0
        public var center: (longitude: Int32, latitude: Int32) = (0, 0)

        public init() {}

        public static func == (left: Header, right: Header) -> Bool {
            left.serialized() == right.serialized()
        }

        /// The 127 bytes, little-endian.
        public func serialized() -> [UInt8] {
            var bytes = Self.magic
            bytes.append(3)
            for value in [
                rootOffset, rootLength, metadataOffset, metadataLength, leavesOffset, leavesLength, tileDataOffset, tileDataLength, addressedTiles,
                tileEntries, tileContents,
            ] {
                withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
            }
            bytes += [clustered ? 1 : 0, internalCompression.rawValue, tileCompression.rawValue, tileType.rawValue, minimumZoom, maximumZoom]
            for value in [bounds.west, bounds.south, bounds.east, bounds.north] {
                withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
            }
            bytes.append(centerZoom)
            for value in [center.longitude, center.latitude] {
                withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
            }
            return bytes
        }

        /// Reads a header, refusing bytes that are not a PMTiles v3 header or whose sections lie
        /// past `archiveSize` (when known) or overlap the header.
        public init(_ bytes: [UInt8], archiveSize: UInt64? = nil) throws(Failure) {
            guard bytes.count >= Self.size, Array(bytes[0..<7]) == Self.magic else { throw Failure("not a PMTiles archive") }
            guard bytes[7] == 3 else { throw Failure("a PMTiles archive of version \(bytes[7]); only version 3 is read") }
            func u64(_ at: Int) -> UInt64 { (0..<8).reduce(UInt64(0)) { $0 | UInt64(bytes[at + $1]) << (8 * UInt64($1)) } }
            func i32(_ at: Int) -> Int32 { Int32(bitPattern: (0..<4).reduce(UInt32(0)) { $0 | UInt32(bytes[at + $1]) << (8 * UInt32($1)) }) }
            rootOffset = u64(8)
            rootLength = u64(16)
            metadataOffset = u64(24)
            metadataLength = u64(32)
            leavesOffset = u64(40)
            leavesLength = u64(48)
            tileDataOffset = u64(56)
            tileDataLength = u64(64)
            addressedTiles = u64(72)
            tileEntries = u64(80)
            tileContents = u64(88)
            clustered = bytes[96] == 1
            guard let directories = Compression(rawValue: bytes[97]), let tiles = Compression(rawValue: bytes[98]) else {
                throw Failure("a PMTiles header names an unknown compression")
            }
            internalCompression = directories
            tileCompression = tiles
            tileType = TileType(rawValue: bytes[99]) ?? .unknown
            minimumZoom = bytes[100]
            maximumZoom = bytes[101]
            bounds = (i32(102), i32(106), i32(110), i32(114))
            centerZoom = bytes[118]
            center = (i32(119), i32(123))
            for (name, offset, length) in [
                ("root directory", rootOffset, rootLength), ("metadata", metadataOffset, metadataLength),
                ("leaf directories", leavesOffset, leavesLength), ("tile data", tileDataOffset, tileDataLength),
            ] {
                let (end, overflow) = offset.addingReportingOverflow(length)
                guard !overflow, length == 0 || offset >= UInt64(Self.size) else { throw Failure("a PMTiles header's \(name) overlaps the header or overflows") }
                if let archiveSize, end > archiveSize { throw Failure("a PMTiles header's \(name) ends past the archive's \(archiveSize) bytes") }
            }
            guard rootLength > 0, rootOffset + rootLength <= UInt64(PMTiles.rootLimit) else {
                throw Failure("a PMTiles root directory must lie within the first 16 KiB")
            }
        }
    }
}
