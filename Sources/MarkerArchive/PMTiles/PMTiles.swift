/// PMTiles version 3: a single-file archive of map tiles, read with byte ranges
/// (https://github.com/protomaps/PMTiles/blob/main/spec/v3/spec.md).
///
/// A 127-byte header, a root directory within the first 16 KiB, JSON metadata, leaf directories and
/// the tile data. A directory lists entries by tile ID (a Hilbert curve's index, zoom by zoom); an
/// entry is a run of tiles with the same bytes, or, with a run length of 0, a leaf directory.
public enum PMTiles {
    /// How the directories, the metadata or the tiles are compressed.
    public enum Compression: UInt8, Sendable, Equatable {
        case unknown = 0, none = 1, gzip = 2, brotli = 3, zstd = 4
    }

    /// What the tiles are.
    public enum TileType: UInt8, Sendable, Equatable {
        case unknown = 0, mvt = 1, png = 2, jpeg = 3, webp = 4, avif = 5, mlt = 6

        /// The MBTiles `format` and the file extension of such tiles.
        public var format: String {
            switch self {
            case .unknown: "unknown"
            case .mvt: "pbf"
            case .png: "png"
            case .jpeg: "jpg"
            case .webp: "webp"
            case .avif: "avif"
            case .mlt: "mlt"
            }
        }

        /// The type an MBTiles `format` names.
        public init(format: String) {
            switch format.lowercased() {
            case "pbf", "mvt": self = .mvt
            case "png": self = .png
            case "jpg", "jpeg": self = .jpeg
            case "webp": self = .webp
            case "avif": self = .avif
            case "mlt": self = .mlt
            default: self = .unknown
            }
        }

        /// Whether MapLibre draws such tiles as a raster layer.
        public var isRaster: Bool { [.png, .jpeg, .webp, .avif].contains(self) }
    }

    /// The bytes before which the header and the root directory must end.
    public static let rootLimit = 16_384

    /// What is wrong with an archive.
    public struct Failure: Error, Sendable, Equatable, CustomStringConvertible {
        public let description: String
        public init(_ description: String) { self.description = description }
    }
}
