public import MarkerArchive
/// Where a pack's tiles come from: a PMTiles archive, an MBTiles file or an XYZ URL template.
public protocol TileSource: Sendable {
    /// What the source says of its tiles, read when it was opened.
    var info: TileSourceInfo { get }

    /// Fetches `tiles`, handing each one the source has to `deliver` (one at a time, in no set
    /// order); those it lacks are counted, not delivered.
    func fetch(_ tiles: [TileAddress], deliver: @Sendable (TileAddress, [UInt8]) async throws -> Void) async throws -> FetchCounts
}

/// What a source says of its tiles.
public struct TileSourceInfo: Sendable {
    public var tileType: PMTiles.TileType
    public var tileCompression: PMTiles.Compression
    /// The source's JSON metadata (attribution, vector layers), or `{}`.
    public var metadata: [UInt8]
    /// The tiles' size in pixels, where the source says.
    public var tileSize: Int?
    /// The mean bytes of a tile, where the source tells before fetching (an archive's tile data
    /// over its tiles); nil for an XYZ template until a few tiles are in.
    public var meanTileBytes: Double?

    public init(tileType: PMTiles.TileType, tileCompression: PMTiles.Compression, metadata: [UInt8], tileSize: Int?, meanTileBytes: Double?) {
        self.tileType = tileType
        self.tileCompression = tileCompression
        self.metadata = metadata
        self.tileSize = tileSize
        self.meanTileBytes = meanTileBytes
    }
}

/// What fetching cost.
public struct FetchCounts: Sendable, Equatable {
    /// Tiles the source lacks (no entry, 404, 204).
    public var absent = 0
    /// Requests made (reads of a file, HTTP requests with retries).
    public var requests = 0
    /// Bytes read from the source, directories and tiles.
    public var bytes: UInt64 = 0

    public init(absent: Int = 0, requests: Int = 0, bytes: UInt64 = 0) {
        self.absent = absent
        self.requests = requests
        self.bytes = bytes
    }
}

/// What is wrong with a source: one line for the user.
public struct SourceError: Error, Sendable, Equatable, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}

/// The `tileSize` a JSON metadata object gives, if 256 or 512.
func tileSize(inMetadata metadata: [UInt8]) -> Int? {
    // A light scan, not a JSON parser: `"tileSize": 512` or `"tilesize":256`.
    let text = Array(String(decoding: metadata, as: UTF8.self).lowercased().utf8)
    let key = Array("\"tilesize\"".utf8)
    guard text.count >= key.count, let start = (0...(text.count - key.count)).first(where: { text[$0..<($0 + key.count)].elementsEqual(key) }) else {
        return nil
    }
    let rest = text[(start + key.count)...].drop { $0 == 0x20 || $0 == 0x3A || $0 == 0x22 }
    return Int(String(decoding: rest.prefix { (0x30...0x39).contains($0) }, as: UTF8.self)).flatMap { [256, 512].contains($0) ? $0 : nil }
}
