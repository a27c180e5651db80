import ArgumentParser
import CommandSupport
import FoundationEssentials
import MarkerArchive
import MarkerPack
import SystemPackage

#if canImport(Glibc)
import Glibc
#endif

/// `markerpaint-pack`: fetches the tiles `offline/tiles.json` lists into one archive. `markerpaint
/// route --offline --tiles-from` runs it; it is an executable of its own so that drawing never
/// loads the HTTP stack.
@main
struct MarkerPaintPack: AsyncParsableCommand {
    static func main() async {
        await runReportingFailure(as: "markerpaint-pack")
    }

    static let configuration = CommandConfiguration(
        commandName: "markerpaint-pack",
        abstract: "Fetch the map tiles an offline pack lists into one PMTiles or MBTiles archive.",
        discussion: """
            SOURCE is a PMTiles v3 archive (a path, or an http(s) URL read by byte ranges), an XYZ URL template \
            (https://tiles.example.com/{z}/{x}/{y}.png, {-y} for rows from the south) or an MBTiles file. The archive is \
            written into --into under a temporary name and moved to basemap-<hash>.<format> once whole; one JSON line on \
            standard output says what it is.
            """
    )

    @Option(help: ArgumentHelp("offline/tiles.json, as route --offline writes it.", valueName: "file"))
    var tiles: String

    @Option(name: .customLong("from"), help: ArgumentHelp("Where the tiles come from.", valueName: "source"))
    var source: String

    @Option(help: ArgumentHelp("The folder the archive is written into.", valueName: "folder"))
    var into: String

    @Option(help: "pmtiles (PMTiles v3) or mbtiles (MBTiles 1.3).")
    var format: String = "pmtiles"

    @Option(help: ArgumentHelp("The most bytes the pack may hold, checked before fetching and while fetching.", valueName: "bytes"))
    var maxPackBytes: UInt64 = 2_000_000_000

    @Option(help: ArgumentHelp("Requests in flight at once, 1 to 64.", valueName: "n"))
    var fetchConcurrency = 8

    @Option(help: ArgumentHelp("The tiles' size in pixels where the source does not say: 256 or 512.", valueName: "pixels"))
    var tileSize: Int?

    @Flag(help: "Report a failure as {\"error\": …} on standard output, for markerpaint route, instead of on standard error.")
    var json = false

    func validate() throws {
        guard PackFormat(rawValue: format) != nil else { throw ValidationError("--format must be pmtiles or mbtiles, not \"\(format)\"") }
        guard (1...64).contains(fetchConcurrency) else { throw ValidationError("--fetch-concurrency must be 1 to 64, not \(fetchConcurrency)") }
        guard maxPackBytes >= 1 else { throw ValidationError("--max-pack-bytes must be at least 1") }
        if let tileSize, ![256, 512].contains(tileSize) { throw ValidationError("--tile-size must be 256 or 512, not \(tileSize)") }
    }

    func run() async throws {
        let started = ContinuousClock.now
        func seconds() -> Double {
            let (whole, fraction) = (ContinuousClock.now - started).components
            return Double(whole) + Double(fraction) / 1e18
        }
        let list = try TileList(json: try readFile(FilePath(tiles), limit: 512 << 20))
        var options = HTTPFetcher.Options()
        options.concurrency = fetchConcurrency
        let fetcher = HTTPFetcher(options: options)
        let bar = isatty(2) == 1 ? PackProgressBar(total: list.tiles.count) : nil
        do {
            let tileSource = try await Self.open(source, tiles: list.tiles, fetcher: fetcher, tileSize: tileSize)
            let pack = TilePack(
                tiles: list.tiles, bounds: list.box,
                center: ((list.box.west + list.box.east) / 2, (list.box.south + list.box.north) / 2, list.minimumZoom),
                format: PackFormat(rawValue: format) ?? .pmtiles, maximumBytes: maxPackBytes)
            let written = try await pack.write(from: tileSource, into: FilePath(into)) { bar?.show($0) }
            bar?.finish()
            await fetcher.shutdown()
            let elapsed = seconds()
            let record = PackOutcome.packed(
                PackedArchive(
                    name: written.fileName, bytes: Int(written.bytes), sha256: written.sha256, format: written.format.rawValue,
                    tileType: written.tileType.format, tileCompression: "\(written.tileCompression)",
                    tileSize: written.tileSize ?? tileSize ?? list.tileSize, tiles: written.tiles, absent: written.absent,
                    requests: written.requests, fetchedBytes: Int(written.fetchedBytes), seconds: (elapsed * 1000).rounded() / 1000,
                    attribution: written.attribution, minimumZoom: list.tiles.map(\.zoom).min() ?? 0,
                    maximumZoom: list.tiles.map(\.zoom).max() ?? 0))
            print(String(decoding: try JSONEncoder().encode(record), as: UTF8.self))
            Self.closing(
                "\(written.tiles) tiles, \(written.absent) absent, \(written.bytes) bytes, \(written.requests) requests, \(Self.tenths(elapsed)) s")
        } catch {
            bar?.finish()
            await fetcher.shutdown()
            let counts = fetcher.counts
            Self.closing("no pack written; \(counts.requests) requests, \(counts.bytes) bytes fetched, \(Self.tenths(seconds())) s")
            guard json else { throw error }
            let message = "\(error)".split(separator: "\n").first.map(String.init) ?? "\(error)"
            print(String(decoding: try JSONEncoder().encode(PackOutcome.failed(message)), as: UTF8.self))
            throw ExitCode.failure
        }
    }

    static func tenths(_ seconds: Double) -> String {
        let tenths = Int((seconds * 10).rounded())
        return "\(tenths / 10).\(tenths % 10)"
    }

    /// The closing line on standard error, in every case.
    static func closing(_ text: String) {
        Terminal.write("offline pack: \(text)\n", to: .error)
    }

    /// The source `text` names: an XYZ template, a PMTiles URL, an MBTiles file or a PMTiles file.
    static func open(_ text: String, tiles: [TileAddress], fetcher: HTTPFetcher, tileSize: Int?) async throws -> any TileSource {
        if XYZSource.isTemplate(text) {
            return try await XYZSource(template: text, fetcher: fetcher, tiles: tiles, tileSize: tileSize)
        }
        if text.hasPrefix("http://") || text.hasPrefix("https://") {
            return try await PMTilesSource(HTTPRangeSource(url: text, fetcher: fetcher))
        }
        let path = FilePath(text)
        let head = try readFile(path, limit: 16)
        if head.starts(with: Array("SQLite format 3".utf8)) { return try MBTilesSource(path) }
        return try await PMTilesSource(FileRangeSource(path))
    }

}

/// Reads at most `limit` bytes of a file, with a clear error.
func readFile(_ path: FilePath, limit: Int) throws -> [UInt8] {
    do {
        let file = try FileDescriptor.open(path, .readOnly, options: [.closeOnExec])
        defer { try? file.close() }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while bytes.count < limit {
            let read = try chunk.withUnsafeMutableBytes { try file.read(into: $0) }
            if read == 0 { break }
            bytes += chunk[0..<min(read, limit - bytes.count)]
        }
        return bytes
    } catch {
        throw SourceError("cannot read \(path): \(error)")
    }
}
