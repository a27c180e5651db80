public import MarkerArchive
public import SystemPackage

/// Tiles from an MBTiles file.
public final class MBTilesSource: TileSource, @unchecked Sendable {
    // @unchecked: the reader's statement is used by one fetch at a time, which `fetch` awaits in turn.
    public let info: TileSourceInfo
    private let reader: MBTiles.Reader
    private let path: FilePath

    public init(_ path: FilePath) throws {
        self.path = path
        do {
            reader = try MBTiles.Reader(path)
        } catch {
            throw SourceError("\(path) is not an MBTiles file: \(error.description)")
        }
        let metadata = reader.metadata
        guard let format = metadata["format"] else { throw SourceError("\(path): its MBTiles metadata has no format") }
        let type = PMTiles.TileType(format: format)
        // Vector tiles in MBTiles are gzip-compressed by the spec's convention.
        let compression: PMTiles.Compression = type == .mvt ? .gzip : .none
        var document: [String] = []
        func quoted(_ text: String) -> String {
            var out = "\""
            for scalar in text.unicodeScalars {
                switch scalar {
                case "\"": out += "\\\""
                case "\\": out += "\\\\"
                case "\n": out += "\\n"
                case _ where scalar.value < 0x20: out += "\\u" + String(scalar.value, radix: 16).leftPadded(to: 4)
                default: out.unicodeScalars.append(scalar)
                }
            }
            return out + "\""
        }
        for key in ["name", "attribution", "description", "version"] {
            if let value = metadata[key] { document.append("\(quoted(key)):\(quoted(value))") }
        }
        // `json` holds vector_layers as a JSON object: its members join the metadata.
        if let json = metadata["json"]?.trimmingSpaces, json.hasPrefix("{"), json.hasSuffix("}"), json.count > 2 {
            document.append(String(json.dropFirst().dropLast()))
        }
        do {
            info = TileSourceInfo(
                tileType: type, tileCompression: compression, metadata: Array("{\(document.joined(separator: ","))}".utf8),
                tileSize: metadata["tileSize"].flatMap(Int.init) ?? metadata["tilesize"].flatMap(Int.init), meanTileBytes: try reader.meanTileBytes())
        } catch {
            throw SourceError("\(path): \(error.description)")
        }
    }

    public func fetch(_ tiles: [TileAddress], deliver: @Sendable (TileAddress, [UInt8]) async throws -> Void) async throws -> FetchCounts {
        var counts = FetchCounts()
        for address in Set(tiles).sorted() {
            counts.requests += 1
            let data: [UInt8]?
            do { data = try reader.tile(address) } catch { throw SourceError("\(path): \(error.description)") }
            guard let data else {
                counts.absent += 1
                continue
            }
            counts.bytes += UInt64(data.count)
            try await deliver(address, data)
        }
        return counts
    }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String { String(repeating: "0", count: max(width - count, 0)) + self }
    fileprivate var trimmingSpaces: String {
        String(drop { $0.isWhitespace }.reversed().drop { $0.isWhitespace }.reversed())
    }
}
