import MarkerArchive

/// libFuzzer target: the bytes read as a PMTiles directory, as a header, and as a gzip member,
/// as an archive's reader meets them. What must hold: refused or read, never a trap; a directory
/// that reads writes back to bytes that read the same, and finds any tile ID without trapping; a
/// header's sections lie within the bytes it was read from; gzip never unpacks past its limit.
enum PMTilesTarget: FuzzTarget {
    static let name = "pmtiles"

    static func fuzz(_ bytes: [UInt8]) {
        if let directory = try? PMTiles.Directory(serialized: bytes) {
            let again = try? PMTiles.Directory(serialized: directory.serialized())
            guard again == directory else { fatalError("a directory read back differently") }
            for entry in directory.entries.prefix(64) {
                _ = directory.find(entry.tileID)
                _ = directory.find(entry.tileID &+ UInt64(entry.runLength))
            }
            _ = directory.find(0)
            _ = directory.find(.max)
        }
        if let header = try? PMTiles.Header(bytes, archiveSize: UInt64(bytes.count)) {
            guard header.rootOffset + header.rootLength <= UInt64(bytes.count), header.tileDataOffset + header.tileDataLength <= UInt64(bytes.count)
            else { fatalError("a header's sections lie past the bytes it was read from") }
            guard (try? PMTiles.Header(header.serialized() + bytes.dropFirst(PMTiles.Header.size), archiveSize: UInt64(bytes.count))) == header else {
                fatalError("a header read back differently")
            }
        }
        if let unpacked = try? Gzip.decompress(bytes, limit: 1 << 16) {
            guard unpacked.count <= 1 << 16 else { fatalError("gzip unpacked past its limit") }
        }
        // Tile IDs from the first eight bytes: back to the same ID where it has an address.
        if bytes.count >= 8 {
            let id = bytes.prefix(8).reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
            if let address = TileAddress(tileID: id) {
                guard address.isValid, address.tileID == id else { fatalError("tile ID \(id) read back as \(address.tileID)") }
            }
        }
    }
}
