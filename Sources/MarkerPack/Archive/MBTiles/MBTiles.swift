public import MarkerArchive
import MarkerSpec
public import SystemPackage

/// MBTiles 1.3 (https://github.com/mapbox/mbtiles-spec/blob/master/1.3/spec.md): tiles in an
/// SQLite file, rows counted from the south (TMS), and a table of metadata.
public enum MBTiles {
    /// What is wrong with an MBTiles file, or writing one.
    public struct Failure: Error, Sendable, Equatable, CustomStringConvertible {
        public let description: String
        public init(_ description: String) { self.description = description }
    }

    /// Writes `tiles` as a new MBTiles file at `path` (which must not exist) with `metadata`.
    public static func write(_ tiles: some Sequence<(TileAddress, [UInt8])>, metadata: [(String, String)], to path: FilePath) throws(Failure) {
        let writer = try Writer(path, metadata: metadata)
        do throws(Failure) {
            for (address, bytes) in tiles { try writer.add(address, bytes: bytes) }
            try writer.finish()
        } catch {
            writer.abandon()
            throw error
        }
    }

    /// Writes a new MBTiles file tile by tile: metadata (name to value: `name`, `format`, `bounds`,
    /// `center`, `minzoom`, `maxzoom`, `json` …) and tiles, each distinct tile's bytes stored once
    /// (an `images` table and a `map` behind a `tiles` view, as MBTiles writers deduplicate).
    public final class Writer {
        private var database: SQLiteDatabase?
        private let image: SQLiteStatement
        private let map: SQLiteStatement
        private let path: FilePath

        /// Creates the file at `path`, which must not exist.
        public init(_ path: FilePath, metadata: [(String, String)]) throws(Failure) {
            self.path = path
            let database = try SQLiteDatabase(path, creating: true)
            do throws(Failure) {
                try database.execute(
                    """
                    PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF; PRAGMA page_size = 4096;
                    CREATE TABLE metadata (name TEXT PRIMARY KEY, value TEXT);
                    CREATE TABLE images (tile_id TEXT PRIMARY KEY, tile_data BLOB);
                    CREATE TABLE map (zoom_level INTEGER, tile_column INTEGER, tile_row INTEGER, tile_id TEXT);
                    CREATE UNIQUE INDEX map_index ON map (zoom_level, tile_column, tile_row);
                    CREATE VIEW tiles AS SELECT map.zoom_level AS zoom_level, map.tile_column AS tile_column, map.tile_row AS tile_row,
                        images.tile_data AS tile_data FROM map JOIN images ON images.tile_id = map.tile_id;
                    BEGIN;
                    """)
                let meta = try database.prepare("INSERT INTO metadata (name, value) VALUES (?, ?)")
                for (name, value) in metadata {
                    try meta.bind([.text(name), .text(value)])
                    _ = try meta.step()
                }
                image = try database.prepare("INSERT OR IGNORE INTO images (tile_id, tile_data) VALUES (?, ?)")
                map = try database.prepare("INSERT INTO map (zoom_level, tile_column, tile_row, tile_id) VALUES (?, ?, ?, ?)")
            } catch {
                _ = path.withPlatformString { systemUnlink($0) }
                throw error
            }
            self.database = database
        }

        public func add(_ address: TileAddress, bytes: [UInt8]) throws(Failure) {
            guard address.isValid else { throw Failure("no tile \(address)") }
            let id = ContentHash.sha256Hex(bytes)
            try image.bind([.text(id), .blob(bytes)])
            _ = try image.step()
            try map.bind([.integer(address.zoom), .integer(address.x), .integer(address.tmsRow), .text(id)])
            guard (try? map.step()) != nil else { throw Failure("tile \(address) was added twice") }
        }

        /// Commits the tiles and closes the file.
        public func finish() throws(Failure) {
            try database?.execute("COMMIT;")
            database = nil
        }

        /// Closes and removes the file.
        public func abandon() {
            database = nil
            _ = path.withPlatformString { systemUnlink($0) }
        }
    }

    /// An MBTiles file opened to read.
    public final class Reader {
        private let database: SQLiteDatabase
        private let query: SQLiteStatement
        /// The metadata table, name to value.
        public let metadata: [String: String]

        public init(_ path: FilePath) throws(Failure) {
            database = try SQLiteDatabase(path, creating: false)
            var metadata: [String: String] = [:]
            let rows = try database.prepare("SELECT name, value FROM metadata")
            while try rows.step() {
                if let name = rows.text(0), let value = rows.text(1) { metadata[name] = value }
            }
            self.metadata = metadata
            query = try database.prepare("SELECT tile_data FROM tiles WHERE zoom_level = ? AND tile_column = ? AND tile_row = ?")
        }

        /// The tile at `address`, nil where the file has none.
        public func tile(_ address: TileAddress) throws(Failure) -> [UInt8]? {
            guard address.isValid else { return nil }
            try query.bind([.integer(address.zoom), .integer(address.x), .integer(address.tmsRow)])
            return try query.step() ? query.blob(0) : nil
        }

        /// The mean bytes of a tile, from a sample of the file's first rows; nil for an empty file.
        public func meanTileBytes(sample: Int = 1000) throws(Failure) -> Double? {
            let rows = try database.prepare("SELECT length(tile_data) FROM tiles LIMIT \(sample)")
            var (count, total) = (0, 0)
            while try rows.step() {
                count += 1
                total += rows.integer(0)
            }
            return count > 0 ? Double(total) / Double(count) : nil
        }
    }
}
