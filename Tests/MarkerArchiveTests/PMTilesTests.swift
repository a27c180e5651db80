import Foundation
import MarkerArchive
import SystemPackage
import TestSupport
import Testing

@Suite("PMTiles v3: tile IDs, directories and archives, against PyPI's pmtiles")
struct PMTilesTests {
    static let tool = Repository.path("Tests/Scripts/pmtiles_tool.py")

    @Test("tile IDs are pmtiles' Hilbert IDs, and read back to their tiles")
    func tileIDs() async throws {
        var generator = SeededGenerator(seed: 7)
        var addresses = [TileAddress(zoom: 0, x: 0, y: 0), TileAddress(zoom: 31, x: (1 << 31) - 1, y: (1 << 31) - 1)]
        for zoom in 1...24 {
            let side = 1 << zoom
            addresses += [TileAddress(zoom: zoom, x: 0, y: side - 1), TileAddress(zoom: zoom, x: side - 1, y: 0)]
            for _ in 0..<20 { addresses.append(TileAddress(zoom: zoom, x: Int.random(in: 0..<side, using: &generator), y: Int.random(in: 0..<side, using: &generator))) }
        }
        let folder = try TemporaryFolder()
        let list = folder.url.appendingPathComponent("tiles.txt")
        try addresses.map { "\($0.zoom) \($0.x) \($0.y)" }.joined(separator: "\n").write(to: list, atomically: true, encoding: .utf8)
        let expected = try await Python.run([Self.tool, "ids", list.path]).split(separator: "\n").map { UInt64($0) }
        #expect(expected == addresses.map { $0.tileID })
        for address in addresses { #expect(TileAddress(tileID: address.tileID) == address) }
    }

    @Test("a directory reads back as it was written", arguments: [0, 1, 7, 5000])
    func directoryRoundTrip(count: Int) throws {
        var generator = SeededGenerator(seed: UInt64(count))
        var entries: [PMTiles.Entry] = []
        var (id, offset): (UInt64, UInt64) = (3, 0)
        for _ in 0..<count {
            let length = UInt32.random(in: 1...70_000, using: &generator)
            let run = UInt32.random(in: 0...3, using: &generator)
            // Mostly right after the last (offset written as 0), sometimes pointing back (a shared tile).
            let back = Bool.random(using: &generator) && offset > 0
            entries.append(PMTiles.Entry(tileID: id, offset: back ? offset / 2 : offset, length: length, runLength: run))
            offset += UInt64(length)
            id += UInt64.random(in: 1...1000, using: &generator)
        }
        let directory = PMTiles.Directory(entries: entries)
        #expect(try PMTiles.Directory(serialized: directory.serialized()) == directory)
    }

    @Test(
        "bytes that are no directory are refused, not trusted",
        arguments: [
            ([], "cut short"), ([0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x7F], "64 bits"), ([200, 1], "claims"),
            ([1, 5, 1, 1], "cut short"), ([2, 5, 0, 1, 1, 1, 1, 1, 1], "ascending"), ([1, 5, 1, 1, 0], "first offset"), ([1, 5, 1, 1, 1, 9], "after"),
            ([1, 5, 1, 10, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x01], "overflow"),
        ] as [([UInt8], String)])
    func hostileDirectories(bytes: [UInt8], message: String) {
        #expect {
            _ = try PMTiles.Directory(serialized: bytes)
        } throws: { error in
            "\(error)".contains(message)
        }
    }

    @Test("ranges are cut out of the joined requests as asked, empty ones (tiles of no bytes) anywhere")
    func rangePlan() async throws {
        let bytes = (0..<200).map { UInt8($0) }
        let wanted: [Range<UInt64>] = [5..<5, 10..<20, 20..<25, 100..<110, 10..<20, 199..<199, 150..<150]
        let plan = RangePlan(wanted, slack: 0.05)
        // 10-25 joined (they touch), 100-110 apart: the gap is far more than 5% of 25 bytes.
        #expect(plan.requests == [10..<25, 100..<110])
        let read = try await plan.fetch(from: MemoryRangeSource(bytes: bytes))
        #expect(read == wanted.map { Array(bytes[Int($0.lowerBound)..<Int($0.upperBound)]) })
    }

    /// Tiles of zooms 0-`maximumZoom` about Ljubljana: every `shareEvery`th the same bytes as the
    /// one before it (sea: runs and shared tiles), the rest distinct.
    static func tiles(maximumZoom: Int, perZoom: Int, seed: UInt64) -> [(TileAddress, [UInt8])] {
        var generator = SeededGenerator(seed: seed)
        var tiles: [(TileAddress, [UInt8])] = []
        var last: [UInt8] = []
        let sea = Array("sea".utf8) + [UInt8](repeating: 0x5E, count: 40)
        for zoom in 0...maximumZoom {
            let side = 1 << zoom
            let (cx, cy) = (Int(Double(side) * 0.54), Int(Double(side) * 0.36))
            let width = Int(Double(perZoom).squareRoot().rounded(.up))
            var seen = Set<TileAddress>()
            for row in 0..<width {
                for column in 0..<width where seen.count < perZoom {
                    let address = TileAddress(zoom: zoom, x: min(max(cx - width / 2 + column, 0), side - 1), y: min(max(cy - width / 2 + row, 0), side - 1))
                    guard seen.insert(address).inserted else { continue }
                    let bytes: [UInt8]
                    switch Int.random(in: 0..<10, using: &generator) {
                    case 0, 1: bytes = sea
                    case 2: bytes = last.isEmpty ? sea : last
                    default: bytes = Array("tile \(address)".utf8) + (0..<Int.random(in: 10...400, using: &generator)).map { _ in UInt8.random(in: 0...255, using: &generator) }
                    }
                    last = bytes
                    tiles.append((address, bytes))
                }
            }
        }
        return tiles
    }

    @Test("an archive written here is read by pmtiles, tile by tile, byte for byte", arguments: [(8, 40, false), (14, 3000, true)])
    func writtenHereReadThere(maximumZoom: Int, perZoom: Int, leaves: Bool) async throws {
        let folder = try TemporaryFolder()
        let tiles = Self.tiles(maximumZoom: maximumZoom, perZoom: perZoom, seed: UInt64(perZoom))
        let archive = folder.path("pack.pmtiles")
        var shuffler = SeededGenerator(seed: 3)
        let summary = try PMTilesWriter.write(
            tiles.shuffled(using: &shuffler), to: archive, scratch: folder.path("scratch"),
            description: .init(
                tileType: .png, tileCompression: .none, bounds: (13.9, 45.3, 14.6, 46.2), center: (14.5, 46.05, 10),
                metadata: Array(#"{"attribution":"© test","name":"pack"}"#.utf8)))
        let dump = try JSONSerialization.jsonObject(with: Data(try await Python.run([Self.tool, "dump", archive.string]).utf8)) as? [String: Any]
        let header = try #require(dump?["header"] as? [String: Any])
        let read = try #require(dump?["tiles"] as? [[Any]])
        var expected: [String: String] = [:]
        for (address, bytes) in tiles { expected["\(address)"] = SHA256Hex.of(bytes) }
        var got: [String: String] = [:]
        for tile in read { got["\(tile[0])/\(tile[1])/\(tile[2])"] = tile[3] as? String }
        #expect(got == expected)
        #expect(header["clustered"] as? Bool == true)
        #expect(header["tile_type"] as? String == "PNG")
        #expect(header["min_zoom"] as? Int == 0 && header["max_zoom"] as? Int == maximumZoom)
        #expect(header["min_lon_e7"] as? Int == 139_000_000 && header["max_lat_e7"] as? Int == 462_000_000)
        #expect(header["addressed_tiles_count"] as? Int == tiles.count)
        let distinct = Set(tiles.map(\.1)).count
        #expect(header["tile_contents_count"] as? Int == distinct)
        // Shared tiles stored once, runs of the same bytes one entry.
        #expect(summary.tileContents == UInt64(distinct))
        #expect(summary.tileEntries < UInt64(tiles.count))
        #expect((dump?["metadata"] as? [String: Any])?["attribution"] as? String == "© test")
        #expect(((dump?["leaves"] as? Int) ?? 0 > 0) == leaves)
        #expect((summary.leafDirectories > 0) == leaves)
        let size = try FileManager.default.attributesOfItem(atPath: archive.string)[.size] as? Int
        #expect(size == Int(summary.bytes))
    }

    @Test("an archive written by pmtiles is read here, leaves and all", arguments: [(6, 30), (14, 3000)])
    func writtenThereReadHere(maximumZoom: Int, perZoom: Int) async throws {
        let folder = try TemporaryFolder()
        let tiles = Self.tiles(maximumZoom: maximumZoom, perZoom: perZoom, seed: 11)
        let spec: [String: Any] = [
            "tiles": tiles.map { [$0.0.zoom, $0.0.x, $0.0.y, $0.1.map { String(format: "%02x", $0) }.joined()] as [Any] },
            "header": ["tile_type": "MVT", "tile_compression": "GZIP", "bounds": [13.9, 45.3, 14.6, 46.2]],
            "metadata": ["vector_layers": [["id": "roads", "fields": [:] as [String: String]]], "attribution": "© there"],
        ]
        let specFile = folder.url.appendingPathComponent("spec.json")
        try JSONSerialization.data(withJSONObject: spec).write(to: specFile)
        let archive = folder.path("there.pmtiles")
        try await Python.run([Self.tool, "write", archive.string, specFile.path])

        let written = try JSONSerialization.jsonObject(with: Data(try await Python.run([Self.tool, "dump", archive.string]).utf8)) as? [String: Any]
        #expect(((written?["leaves"] as? Int) ?? 0 > 0) == (perZoom > 1000), "leaf directories: \(String(describing: written?["leaves"]))")

        let reader = try await PMTilesReader(MemoryRangeSource(bytes: [UInt8](try Data(contentsOf: URL(fileURLWithPath: archive.string)))))
        #expect(reader.header.tileType == .mvt)
        #expect(reader.header.tileCompression == .gzip)
        let metadata = try JSONSerialization.jsonObject(with: Data(reader.metadata)) as? [String: Any]
        #expect(metadata?["attribution"] as? String == "© there")
        // Every tile, and some the archive lacks.
        let absent = [TileAddress(zoom: 6, x: 0, y: 63), TileAddress(zoom: 15, x: 1, y: 1)]
        let located = try await reader.locate(tiles.map(\.0) + absent)
        #expect(located.count == tiles.count)
        let read = try await reader.tiles(located)
        for (address, bytes) in tiles { #expect(read[address] == bytes, "tile \(address)") }
        for address in absent { #expect(read[address] == nil) }
    }
}
