/// An offline pack's archive as `markerpaint-pack --json` reports it on its one line of standard
/// output and `markerpaint route --tiles-from` reads it: the same type on both sides of the pipe.
public struct PackedArchive: Codable, Sendable, Equatable {
    /// The file's name in `offline/`, hashed from its content.
    public var name: String
    public var bytes: Int
    public var sha256: String
    /// `pmtiles` or `mbtiles`.
    public var format: String
    /// `png`, `jpg`, `webp`, `pbf` …
    public var tileType: String
    /// How each tile is compressed in the archive (`none`, `gzip` …).
    public var tileCompression: String
    public var tileSize: Int
    public var tiles: Int
    public var absent: Int
    /// Requests made and bytes fetched from the source.
    public var requests: Int
    public var fetchedBytes: Int
    /// Seconds the pack took, to the millisecond.
    public var seconds: Double
    public var attribution: String?
    public var minimumZoom: Int
    public var maximumZoom: Int

    public init(
        name: String, bytes: Int, sha256: String, format: String, tileType: String, tileCompression: String, tileSize: Int, tiles: Int,
        absent: Int, requests: Int, fetchedBytes: Int, seconds: Double, attribution: String?, minimumZoom: Int, maximumZoom: Int
    ) {
        self.name = name
        self.bytes = bytes
        self.sha256 = sha256
        self.format = format
        self.tileType = tileType
        self.tileCompression = tileCompression
        self.tileSize = tileSize
        self.tiles = tiles
        self.absent = absent
        self.requests = requests
        self.fetchedBytes = fetchedBytes
        self.seconds = seconds
        self.attribution = attribution
        self.minimumZoom = minimumZoom
        self.maximumZoom = maximumZoom
    }

    /// Whether MapLibre draws the tiles as a raster layer.
    public var isRaster: Bool { ["png", "jpg", "jpeg", "webp", "avif"].contains(tileType) }

    enum CodingKeys: String, CodingKey {
        case name, bytes, sha256, format, tileType, tileCompression, tileSize, tiles, absent, requests, fetchedBytes, seconds, attribution
        case minimumZoom = "minzoom"
        case maximumZoom = "maxzoom"
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(name, forKey: .name)
        try container.encode(bytes, forKey: .bytes)
        try container.encode(sha256, forKey: .sha256)
        try container.encode(format, forKey: .format)
        try container.encode(tileType, forKey: .tileType)
        try container.encode(tileCompression, forKey: .tileCompression)
        try container.encode(tileSize, forKey: .tileSize)
        try container.encode(tiles, forKey: .tiles)
        try container.encode(absent, forKey: .absent)
        try container.encode(requests, forKey: .requests)
        try container.encode(fetchedBytes, forKey: .fetchedBytes)
        try container.encode(seconds, forKey: .seconds)
        // Written as null, not left out: the reader sees that the source named none.
        try container.encode(attribution, forKey: .attribution)
        try container.encode(minimumZoom, forKey: .minimumZoom)
        try container.encode(maximumZoom, forKey: .maximumZoom)
    }
}

/// What `markerpaint-pack --json` ends with: the archive written, or why none was, as
/// `{"error": "…"}`.
public enum PackOutcome: Codable, Sendable, Equatable {
    case packed(PackedArchive)
    case failed(String)

    private enum FailureKeys: String, CodingKey { case error }

    public init(from decoder: any Decoder) throws {
        let failure = try decoder.container(keyedBy: FailureKeys.self)
        if let message = try failure.decodeIfPresent(String.self, forKey: .error) {
            self = .failed(message)
        } else {
            self = .packed(try PackedArchive(from: decoder))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        switch self {
        case .packed(let archive): try archive.encode(to: encoder)
        case .failed(let message):
            var container = encoder.container(keyedBy: FailureKeys.self)
            try container.encode(message, forKey: .error)
        }
    }
}
