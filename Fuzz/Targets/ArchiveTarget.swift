import Dispatch
import MarkerArchive

/// libFuzzer target: the bytes as a whole PMTiles archive, read as `markerpaint-pack` reads one:
/// opened (header, root, metadata), the tiles its directories name and a few fixed ones located
/// through leaves that may point at leaves, and their bytes read. What must hold: refused or read,
/// never a trap or a hang; a located tile lies where its directory said, and reads whole or is refused.
enum ArchiveTarget: FuzzTarget {
    static let name = "archive"

    static func fuzz(_ bytes: [UInt8]) {
        let done = DispatchSemaphore(value: 0)
        Task {
            await read(bytes)
            done.signal()
        }
        done.wait()
    }

    static func read(_ bytes: [UInt8]) async {
        guard let reader = try? await PMTilesReader(MemoryRangeSource(bytes: bytes)) else { return }
        var wanted = [TileAddress(zoom: 0, x: 0, y: 0), TileAddress(zoom: 1, x: 1, y: 0), TileAddress(zoom: 3, x: 5, y: 2)]
        // The tiles (or first tiles of leaves) the root names, and each one's neighbour on the curve.
        let header = reader.header
        let rootBytes = Array(bytes[Int(header.rootOffset)..<Int(header.rootOffset + header.rootLength)])
        let unpacked = header.internalCompression == .gzip ? try? Gzip.decompress(rootBytes, limit: 1 << 20) : rootBytes
        if let unpacked, let root = try? PMTiles.Directory(serialized: unpacked) {
            for entry in root.entries.prefix(32) {
                for id in [entry.tileID, entry.tileID &+ 1] {
                    if let address = TileAddress(tileID: id) { wanted.append(address) }
                }
            }
        }
        guard let located = try? await reader.locate(wanted) else { return }
        for (address, range) in located {
            guard wanted.contains(address), range.lowerBound >= reader.header.tileDataOffset else {
                fatalError("tile \(address) located at \(range), before the tile data")
            }
        }
        guard let tiles = try? await reader.tiles(located) else { return }
        for (address, data) in tiles {
            guard let range = located[address], UInt64(data.count) == range.upperBound - range.lowerBound,
                Array(bytes[Int(range.lowerBound)..<Int(range.upperBound)]) == data
            else { fatalError("tile \(address) read other bytes than its range's") }
        }
    }
}
