import ArgumentParser
import MarkerFiles
import MarkerSpec
import SystemPackage
import OfflineCorridor
import RouteModel

#if canImport(Glibc)
import Glibc
#endif

/// `route --offline`: the corridor and the map tiles to ride the route offline, beside the markers.
struct OfflineOptions: ParsableArguments {
    @Flag(help: "Also write offline/corridor.geojson and offline/tiles.json: the route buffered, and the map tiles that touch it.")
    var offline = false

    @Option(help: ArgumentHelp("Metres around the route the offline pack covers, 1 to 100000 (default 2000).", valueName: "metres"))
    var buffer: Double?

    @Option(help: ArgumentHelp("Map zooms of the offline pack, as first-last within 0-22 (default 8-16).", valueName: "zooms"))
    var offlineZooms: String?

    @Option(help: ArgumentHelp("The map's tiles: 256 (raster: fetched a zoom further in) or 512 (vector) pixels (default 256).", valueName: "pixels"))
    var tileSize: Int?

    @Option(
        help: ArgumentHelp(
            "Bytes a tile weighs, for the pack's estimate: one number, or zoom=bytes pairs such as 8=40000,16=9000 (default 20000).",
            valueName: "bytes"))
    var tileBytes: String?

    @Option(help: ArgumentHelp("Most tiles the offline pack may hold, counted before it is worked out (default 5000000).", valueName: "n"))
    var maxOfflineTiles: Int?

    @Option(
        help: ArgumentHelp(
            "Fetch the pack's tiles into one archive, offline/basemap-<hash>.pmtiles, from a PMTiles archive (a path or an http(s) URL), an XYZ URL template ({z}/{x}/{y}, {-y}) or an MBTiles file.",
            valueName: "source"))
    var tilesFrom: String?

    @Option(help: ArgumentHelp("The pack's archive: pmtiles (default) or mbtiles.", valueName: "format"))
    var packFormat: String?

    @Option(help: ArgumentHelp("Most bytes the pack's archive may hold, checked before and while fetching (default 2000000000).", valueName: "bytes"))
    var maxPackBytes: UInt64?

    @Option(help: ArgumentHelp("Requests in flight while fetching the pack, 1 to 64 (default 8).", valueName: "n"))
    var fetchConcurrency: Int?

    @Option(
        help: ArgumentHelp(
            "For vector tiles: your basemap's MapLibre style, whose vector sources offline/style.json points at the pack.", valueName: "style.json"))
    var packStyle: String?

    func validate() throws {
        let given: [(String, Bool)] = [
            ("--buffer", buffer != nil), ("--offline-zooms", offlineZooms != nil), ("--tile-size", tileSize != nil),
            ("--tile-bytes", tileBytes != nil), ("--max-offline-tiles", maxOfflineTiles != nil), ("--tiles-from", tilesFrom != nil),
        ]
        if !offline, let (flag, _) = given.first(where: { $0.1 }) { throw ValidationError("\(flag) is for --offline; add --offline") }
        let fetching: [(String, Bool)] = [
            ("--pack-format", packFormat != nil), ("--max-pack-bytes", maxPackBytes != nil), ("--fetch-concurrency", fetchConcurrency != nil),
            ("--pack-style", packStyle != nil),
        ]
        if tilesFrom == nil, let (flag, _) = fetching.first(where: { $0.1 }) { throw ValidationError("\(flag) is for --tiles-from; add --tiles-from") }
        if let packFormat, !["pmtiles", "mbtiles"].contains(packFormat) { throw ValidationError("--pack-format must be pmtiles or mbtiles, not \"\(packFormat)\"") }
        if let maxPackBytes, maxPackBytes < 1 { throw ValidationError("--max-pack-bytes must be at least 1") }
        if let fetchConcurrency, !(1...64).contains(fetchConcurrency) { throw ValidationError("--fetch-concurrency must be 1 to 64, not \(fetchConcurrency)") }
        if let tilesFrom, !(tilesFrom.hasPrefix("http://") || tilesFrom.hasPrefix("https://")), access(tilesFrom, R_OK) != 0 {
            throw ValidationError("--tiles-from: cannot read \(tilesFrom): \(String(cString: strerror(errno)))")
        }
        _ = try packOptions()
        _ = try parsedTileBytes()
    }

    /// The pack these options ask for, or nil without `--offline`.
    func packOptions() throws -> OfflinePack.Options? {
        guard offline else { return nil }
        var options = OfflinePack.Options()
        if let buffer {
            guard buffer.isFinite, OfflinePack.Options.bufferRange.contains(buffer) else {
                throw ValidationError("--buffer must be 1 to 100000 metres, not \(buffer)")
            }
            options.buffer = buffer
        }
        if let offlineZooms {
            guard let zooms = OfflinePack.Options.zooms(parsing: offlineZooms) else {
                throw ValidationError("--offline-zooms must be two zooms within 0-22 as first-last, such as 8-16, not \"\(offlineZooms)\"")
            }
            options.zooms = zooms
        }
        if let tileSize {
            guard tileSize == 256 || tileSize == 512 else { throw ValidationError("--tile-size must be 256 or 512, not \(tileSize)") }
            options.tileSize = tileSize
        }
        if let maxOfflineTiles {
            guard (1...100_000_000).contains(maxOfflineTiles) else { throw ValidationError("--max-offline-tiles must be 1 to 100000000") }
            options.maximumTiles = maxOfflineTiles
        }
        return options
    }

    /// The job that fetches the pack's tiles, or nil without `--tiles-from`.
    func tilesJob() throws -> OfflineTilesJob? {
        guard let tilesFrom else { return nil }
        return OfflineTilesJob(
            executable: try ServeCommand.siblingExecutable("markerpaint-pack"), source: tilesFrom, format: packFormat ?? "pmtiles",
            maximumBytes: maxPackBytes ?? 2_000_000_000, concurrency: fetchConcurrency ?? 8, tileSize: tileSize)
    }

    /// `--pack-style`, read and checked, or nil.
    func basemapStyle() throws -> JSONValue? {
        guard let packStyle else { return nil }
        let bytes: [UInt8]
        do {
            let file = try FileDescriptor.open(FilePath(packStyle), .readOnly)
            defer { try? file.close() }
            bytes = try file.readAll(limit: 16 << 20)
        } catch {
            throw ValidationError("--pack-style: cannot read \(packStyle): \(error)")
        }
        do { return try OfflineStyle.basemapStyle(parsing: bytes) } catch { throw ValidationError(error.message) }
    }

    /// `--tile-bytes`: one size for every zoom, or sizes by map zoom.
    func parsedTileBytes() throws -> [Int: Int] {
        guard let tileBytes else { return [:] }
        let zooms = (try packOptions())?.zooms ?? 8...16
        func bytes(_ text: Substring) throws -> Int {
            guard let value = Int(text.trimmingSpaces), (1...100_000_000).contains(value) else {
                throw ValidationError("--tile-bytes: \"\(text)\" is not a number of bytes from 1 to 100000000")
            }
            return value
        }
        if !tileBytes.contains("=") {
            let size = try bytes(tileBytes[...])
            return Dictionary(uniqueKeysWithValues: zooms.map { ($0, size) })
        }
        var sizes: [Int: Int] = [:]
        for pair in tileBytes.split(separator: ",", omittingEmptySubsequences: false) {
            let parts = pair.split(separator: "=", omittingEmptySubsequences: false)
            guard parts.count == 2, let zoom = Int(parts[0].trimmingSpaces), zooms.contains(zoom) else {
                throw ValidationError("--tile-bytes: \"\(pair)\" is not zoom=bytes for a zoom within \(zooms.lowerBound)-\(zooms.upperBound)")
            }
            guard sizes[zoom] == nil else { throw ValidationError("--tile-bytes names zoom \(zoom) more than once") }
            sizes[zoom] = try bytes(parts[1])
        }
        return sizes
    }
}
