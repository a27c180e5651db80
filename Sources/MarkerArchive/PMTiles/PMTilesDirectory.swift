extension PMTiles {
    /// One directory entry: a run of `runLength` tiles from `tileID` whose bytes are at `offset`
    /// (from the tile data's start) for `length`; or, with a run length of 0, a leaf directory at
    /// `offset` from the leaf directories' start.
    public struct Entry: Sendable, Equatable {
        public var tileID: UInt64
        public var offset: UInt64
        public var length: UInt32
        public var runLength: UInt32

        public init(tileID: UInt64, offset: UInt64, length: UInt32, runLength: UInt32) {
            self.tileID = tileID
            self.offset = offset
            self.length = length
            self.runLength = runLength
        }

        /// Whether the entry points at a leaf directory rather than tiles.
        public var isLeaf: Bool { runLength == 0 }
    }

    /// A directory: entries in tile ID order, serialised as the spec lays them out (columns of
    /// varints: ID deltas, run lengths, lengths, offsets with 0 for "right after the last").
    public struct Directory: Sendable, Equatable {
        public var entries: [Entry]

        public init(entries: [Entry]) { self.entries = entries }

        /// The uncompressed bytes.
        public func serialized() -> [UInt8] {
            var bytes: [UInt8] = []
            bytes.reserveCapacity(entries.count * 8 + 8)
            Varint.append(UInt64(entries.count), to: &bytes)
            var last: UInt64 = 0
            for entry in entries {
                Varint.append(entry.tileID &- last, to: &bytes)
                last = entry.tileID
            }
            for entry in entries { Varint.append(UInt64(entry.runLength), to: &bytes) }
            for entry in entries { Varint.append(UInt64(entry.length), to: &bytes) }
            for (index, entry) in entries.enumerated() {
                if index > 0, entries[index - 1].offset.addingReportingOverflow(UInt64(entries[index - 1].length)) == (entry.offset, false) {
                    Varint.append(0, to: &bytes)
                } else {
                    Varint.append(entry.offset + 1, to: &bytes)
                }
            }
            return bytes
        }

        /// Reads uncompressed directory bytes, refusing any that do not hold a whole directory in
        /// ascending tile ID order.
        public init(serialized bytes: [UInt8]) throws(Failure) {
            var reader = Varint.Reader(bytes)
            let count = try reader.next()
            // Every entry takes at least four bytes: more entries than that is a lie.
            guard count <= UInt64(bytes.count / 4) else { throw Failure("a directory claims \(count) entries in \(bytes.count) bytes") }
            let n = Int(count)
            var entries = [Entry](repeating: Entry(tileID: 0, offset: 0, length: 0, runLength: 0), count: n)
            var last: UInt64 = 0
            for index in 0..<n {
                let delta = try reader.next()
                let (id, overflow) = last.addingReportingOverflow(delta)
                guard !overflow, index == 0 || delta > 0 else { throw Failure("a directory's tile IDs are not in ascending order") }
                entries[index].tileID = id
                last = id
            }
            for index in 0..<n {
                let run = try reader.next()
                guard run <= UInt64(UInt32.max) else { throw Failure("a directory's run length is too long") }
                entries[index].runLength = UInt32(run)
            }
            for index in 0..<n {
                let length = try reader.next()
                guard length <= UInt64(UInt32.max) else { throw Failure("a directory entry's length is too long") }
                entries[index].length = UInt32(length)
            }
            for index in 0..<n {
                let value = try reader.next()
                if value == 0 {
                    guard index > 0 else { throw Failure("a directory's first offset is missing") }
                    let (offset, overflow) = entries[index - 1].offset.addingReportingOverflow(UInt64(entries[index - 1].length))
                    guard !overflow else { throw Failure("a directory's offsets overflow") }
                    entries[index].offset = offset
                } else {
                    entries[index].offset = value - 1
                }
            }
            guard reader.isAtEnd else { throw Failure("a directory has bytes after its entries") }
            // An entry that ends past 2^64 bytes can point nowhere.
            for entry in entries where entry.offset.addingReportingOverflow(UInt64(entry.length)).overflow {
                throw Failure("a directory entry's offset and length overflow")
            }
            self.entries = entries
        }

        /// The entry that holds `tileID`: a run that covers it, or the leaf that would; nil if none.
        public func find(_ tileID: UInt64) -> Entry? {
            var low = 0
            var high = entries.count - 1
            while low <= high {
                let middle = low + (high - low) / 2
                let id = entries[middle].tileID
                if id < tileID { low = middle + 1 } else if id > tileID { high = middle - 1 } else { return entries[middle] }
            }
            // `high` is the last entry before the ID: a run reaching it, or a leaf that may hold it.
            guard high >= 0 else { return nil }
            let entry = entries[high]
            if entry.isLeaf { return entry }
            return tileID - entry.tileID < UInt64(entry.runLength) ? entry : nil
        }
    }
}

/// Unsigned LEB128 varints, as PMTiles directories are written.
enum Varint {
    static func append(_ value: UInt64, to bytes: inout [UInt8]) {
        var value = value
        while value >= 0x80 {
            bytes.append(UInt8(value & 0x7F) | 0x80)
            value >>= 7
        }
        bytes.append(UInt8(value))
    }

    /// Reads varints one after another, refusing one that runs past the end or past 64 bits.
    struct Reader {
        private let bytes: [UInt8]
        private var position = 0

        init(_ bytes: [UInt8]) { self.bytes = bytes }

        var isAtEnd: Bool { position == bytes.count }

        mutating func next() throws(PMTiles.Failure) -> UInt64 {
            var value: UInt64 = 0
            var shift: UInt64 = 0
            while true {
                guard position < bytes.count else { throw PMTiles.Failure("a directory is cut short") }
                let byte = bytes[position]
                position += 1
                guard shift < 64, shift < 63 || byte <= 1 else { throw PMTiles.Failure("a directory's number is longer than 64 bits") }
                value |= UInt64(byte & 0x7F) << shift
                if byte < 0x80 { return value }
                shift += 7
            }
        }
    }
}
