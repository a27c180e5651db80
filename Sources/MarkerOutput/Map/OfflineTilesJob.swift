public import SystemPackage

/// Fetching an offline pack's map tiles into one archive, which `markerpaint route --tiles-from`
/// hands to a batch: the batch writes `offline/tiles.json` and runs the job on its staging folder's
/// `offline/`, and records what it wrote. The job runs apart from the drawing (another process),
/// so that the HTTP stack is never loaded to draw a marker.
public struct OfflineTilesJob: Sendable {
    /// Writes the archive into the folder from the tile list at the given path; returns what it wrote.
    public var run: @Sendable (_ tileList: FilePath, _ folder: FilePath) async throws -> Written

    public init(run: @escaping @Sendable (_ tileList: FilePath, _ folder: FilePath) async throws -> Written) {
        self.run = run
    }

    /// A written archive, as the manifest records it and the offline style points at it.
    public struct Written: Sendable, Equatable {
        /// The file's name in `offline/`, hashed from its content.
        public var name: String
        public var bytes: Int
        public var sha256: String
        /// `pmtiles` or `mbtiles`.
        public var format: String
        /// `png`, `jpg`, `webp`, `pbf` …
        public var tileType: String
        public var tileSize: Int
        public var tiles: Int
        public var absent: Int
        public var attribution: String?
        public var minimumZoom: Int
        public var maximumZoom: Int

        public init(
            name: String, bytes: Int, sha256: String, format: String, tileType: String, tileSize: Int, tiles: Int, absent: Int, attribution: String?,
            minimumZoom: Int, maximumZoom: Int
        ) {
            self.name = name
            self.bytes = bytes
            self.sha256 = sha256
            self.format = format
            self.tileType = tileType
            self.tileSize = tileSize
            self.tiles = tiles
            self.absent = absent
            self.attribution = attribution
            self.minimumZoom = minimumZoom
            self.maximumZoom = maximumZoom
        }

        /// Whether MapLibre draws the tiles as a raster layer.
        public var isRaster: Bool { ["png", "jpg", "jpeg", "webp", "avif"].contains(tileType) }
    }
}
