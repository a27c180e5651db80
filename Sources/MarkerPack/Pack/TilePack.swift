public import MarkerArchive
public import SystemPackage
import MarkerFiles
import MarkerSpec
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The archive formats a pack is written in.
public enum PackFormat: String, Sendable, CaseIterable {
    case pmtiles, mbtiles
}

/// One offline pack: the tiles a ride needs, fetched from a source into one archive file.
public struct TilePack: Sendable {
    /// The tiles, each once.
    public var tiles: [TileAddress]
    /// West, south, east, north in degrees: the corridor's box.
    public var bounds: (west: Double, south: Double, east: Double, north: Double)
    public var center: (longitude: Double, latitude: Double, zoom: Int)
    public var format: PackFormat
    /// The most bytes the pack may hold, checked before fetching and while fetching.
    public var maximumBytes: UInt64
    /// The name before the hash: `basemap-<hash>.pmtiles`.
    public var baseName = "basemap"

    public init(
        tiles: [TileAddress], bounds: (west: Double, south: Double, east: Double, north: Double), center: (longitude: Double, latitude: Double, zoom: Int),
        format: PackFormat, maximumBytes: UInt64
    ) {
        self.tiles = Array(Set(tiles)).sorted()
        self.bounds = bounds
        self.center = center
        self.format = format
        self.maximumBytes = maximumBytes
    }

    /// How far a pack has got, for a progress bar.
    public struct Progress: Sendable {
        public var tiles: Int
        public var total: Int
        public var bytes: UInt64
    }

    /// What a written pack is and what it cost.
    public struct Written: Sendable, Equatable {
        /// The file's name in the folder: `basemap-<first 10 hex digits of its SHA-256>.pmtiles`.
        public var fileName: String
        public var bytes: UInt64
        public var sha256: String
        public var format: PackFormat
        public var tileType: PMTiles.TileType
        public var tileCompression: PMTiles.Compression
        /// Tiles written, and tiles the source lacked.
        public var tiles: Int
        public var absent: Int
        public var requests: Int
        public var fetchedBytes: UInt64
        /// The tile size the source says, if it says.
        public var tileSize: Int?
        /// The source's attribution, which the style repeats.
        public var attribution: String?
    }

    /// Fetches every tile from `source` and writes the archive into `folder`: aside under a
    /// temporary name, moved to its hashed name once whole. Refuses before fetching when the tiles
    /// times the source's mean tile would pass `maximumBytes`, and stops when the tiles fetched do.
    public func write(from source: any TileSource, into folder: FilePath, progress: (@Sendable (Progress) -> Void)? = nil) async throws -> Written {
        let info = source.info
        if let mean = info.meanTileBytes {
            let estimate = Double(tiles.count) * mean
            guard estimate <= Double(maximumBytes) else {
                throw SourceError(
                    "the pack would hold about \(Int(estimate)) bytes (\(tiles.count) tiles of \(Int(mean)) bytes on average), over the \(maximumBytes) allowed (--max-pack-bytes)"
                )
            }
        }
        let directory: Folder
        do { directory = try Folder.open(folder) } catch { throw SourceError(error.message) }
        let token = String(UInt64.random(in: 0...UInt64.max), radix: 36)
        let temporary = ".\(baseName)-\(token).\(format.rawValue).partial"
        let sink = try Sink(
            format: format, path: directory.path(of: temporary), scratch: directory.path(of: ".\(baseName)-\(token).scratch"), info: info,
            pack: self)
        let counts: FetchCounts
        do {
            let total = tiles.count
            let limit = maximumBytes
            counts = try await source.fetch(tiles) { address, bytes in
                let state = try sink.add(address, bytes)
                guard state.bytes <= limit else {
                    throw SourceError("the pack passed the \(limit) bytes allowed (--max-pack-bytes) after \(state.tiles) of \(total) tiles")
                }
                progress?(Progress(tiles: state.tiles, total: total, bytes: state.bytes))
            }
            try sink.finish(self, info: info)
        } catch {
            sink.abandon()
            throw error
        }
        do {
            // Named by its content, as the images are: hashed as it is read, a megabyte at a time.
            guard let sha256 = try ContentHash.sha256Hex(ofFile: temporary, in: directory), let bytes = directory.size(of: temporary) else {
                throw SourceError("the pack \(directory.path(of: temporary)) is gone")
            }
            let name = "\(baseName)-\(sha256.prefix(ImageName.hashLength)).\(format.rawValue)"
            try directory.move(temporary, to: directory, as: name)
            return Written(
                fileName: name, bytes: UInt64(bytes), sha256: sha256, format: format, tileType: info.tileType,
                tileCompression: info.tileCompression, tiles: sink.count, absent: counts.absent, requests: counts.requests,
                fetchedBytes: counts.bytes, tileSize: info.tileSize, attribution: SourceMetadata(info.metadata).attribution)
        } catch {
            try? directory.removeFile(temporary)
            if let error = error as? FileError { throw SourceError(error.message) }
            throw error
        }
    }

    /// The metadata an MBTiles file carries for this pack.
    func mbtilesMetadata(_ info: TileSourceInfo) -> [(String, String)] {
        func number(_ value: Double) -> String {
            let rounded = (value * 1e7).rounded() / 1e7
            return rounded == rounded.rounded() ? String(Int(rounded)) : String(rounded)
        }
        let zooms = tiles.map(\.zoom)
        var metadata: [(String, String)] = [
            ("name", baseName), ("format", info.tileType.format), ("type", "baselayer"), ("version", "1"),
            ("bounds", [bounds.west, bounds.south, bounds.east, bounds.north].map(number).joined(separator: ",")),
            ("center", "\(number(center.longitude)),\(number(center.latitude)),\(center.zoom)"),
            ("minzoom", String(zooms.min() ?? 0)), ("maxzoom", String(zooms.max() ?? 0)),
        ]
        let source = SourceMetadata(info.metadata)
        if let attribution = source.attribution { metadata.append(("attribution", attribution)) }
        if let layers = source.vectorLayers { metadata.append(("json", "{\"vector_layers\":\(layers)}")) }
        return metadata
    }
}

/// Where fetched tiles go: the archive being written, one tile at a time.
private final class Sink: Sendable {
    private enum Writer {
        case pmtiles(PMTilesWriter, scratch: FileDescriptor, scratchPath: FilePath)
        case mbtiles(MBTiles.Writer)
    }

    private struct State {
        var writer: Writer?
        var tiles = 0
        var bytes: UInt64 = 0
    }

    private let state: Mutex<State>
    private let path: FilePath

    init(format: PackFormat, path: FilePath, scratch: FilePath, info: TileSourceInfo, pack: TilePack) throws {
        self.path = path
        switch format {
        case .pmtiles:
            let file = try FileDescriptor.open(scratch, .readWrite, options: [.create, .exclusiveCreate, .closeOnExec], permissions: [.ownerReadWrite])
            state = Mutex(State(writer: .pmtiles(PMTilesWriter(scratch: file), scratch: file, scratchPath: scratch)))
        case .mbtiles:
            state = Mutex(State(writer: .mbtiles(try MBTiles.Writer(path, metadata: pack.mbtilesMetadata(info)))))
        }
    }

    var count: Int { state.withLock { $0.tiles } }

    /// Adds a tile; returns the tiles and bytes so far.
    func add(_ address: TileAddress, _ bytes: [UInt8]) throws -> (tiles: Int, bytes: UInt64) {
        try state.withLock { state throws -> (tiles: Int, bytes: UInt64) in
            switch state.writer {
            case .pmtiles(var writer, let scratch, let scratchPath):
                // Out of the state while it changes, so the arrays it holds are not copied.
                state.writer = nil
                defer { state.writer = .pmtiles(writer, scratch: scratch, scratchPath: scratchPath) }
                try writer.add(address, bytes: bytes)
            case .mbtiles(let writer):
                try writer.add(address, bytes: bytes)
            case nil:
                throw SourceError("the pack is already written")
            }
            state.tiles += 1
            state.bytes += UInt64(bytes.count)
            return (state.tiles, state.bytes)
        }
    }

    func finish(_ pack: TilePack, info: TileSourceInfo) throws {
        try state.withLock { state throws in
            defer { state.writer = nil }
            switch state.writer {
            case .pmtiles(let writer, let scratch, let scratchPath):
                defer {
                    try? scratch.close()
                    _ = scratchPath.withPlatformString { unlink($0) }
                }
                let output = try FileDescriptor.open(
                    path, .writeOnly, options: [.create, .exclusiveCreate, .closeOnExec], permissions: [.ownerReadWrite, .groupRead, .otherRead])
                defer { try? output.close() }
                _ = try writer.finish(
                    PMTilesWriter.Description(
                        tileType: info.tileType, tileCompression: info.tileCompression, bounds: pack.bounds, center: pack.center, metadata: info.metadata),
                    to: output)
            case .mbtiles(let writer):
                try writer.finish()
            case nil:
                break
            }
        }
    }

    func abandon() {
        state.withLock { state in
            switch state.writer {
            case .pmtiles(_, let scratch, let scratchPath):
                try? scratch.close()
                _ = scratchPath.withPlatformString { unlink($0) }
            case .mbtiles(let writer):
                writer.abandon()
            case nil:
                break
            }
            state.writer = nil
        }
        _ = path.withPlatformString { unlink($0) }
    }
}
