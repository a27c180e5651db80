public import MarkerArchive
public import SystemPackage

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Fetching an offline pack's map tiles into one archive (`markerpaint route --tiles-from`): the
/// batch writes `offline/tiles.json` and runs the job on its staging folder's `offline/`, and
/// records what it wrote. The job runs `markerpaint-pack` in a process of its own, so that the
/// HTTP stack is never loaded to draw a marker; its progress bar and closing line reach the
/// terminal, and its result (or its one-line error) comes back as a typed record.
public struct OfflineTilesJob: Sendable {
    /// `markerpaint-pack`, installed beside `markerpaint`.
    public var executable: FilePath
    /// The tile source: a PMTiles or MBTiles archive, or an XYZ URL template.
    public var source: String
    /// `pmtiles` or `mbtiles`.
    public var format: String
    public var maximumBytes: UInt64
    public var concurrency: Int
    /// The source's tile size when it cannot say (XYZ templates), or nil to ask it.
    public var tileSize: Int?

    public init(executable: FilePath, source: String, format: String, maximumBytes: UInt64, concurrency: Int, tileSize: Int?) {
        self.executable = executable
        self.source = source
        self.format = format
        self.maximumBytes = maximumBytes
        self.concurrency = concurrency
        self.tileSize = tileSize
    }

    /// A written archive, as `markerpaint-pack` reports it, the manifest records it and the offline style points at it.
    public typealias Written = PackedArchive

    /// Fetches the tiles listed in `tileList` into one archive in `folder`; returns what it wrote.
    public func run(tileList: FilePath, into folder: FilePath) async throws(OfflineError) -> Written {
        var arguments = [
            "--tiles", tileList.string, "--from", source, "--into", folder.string, "--format", format,
            "--max-pack-bytes", String(maximumBytes), "--fetch-concurrency", String(concurrency), "--json",
        ]
        if let tileSize { arguments += ["--tile-size", String(tileSize)] }
        let (status, output) = try await PackProcess.run(executable, arguments)
        let line = output.split(separator: UInt8(ascii: "\n")).last.map(Array.init) ?? []
        switch try? JSONDecoder().decode(PackOutcome.self, from: Data(line)) {
        case .failed(let message): throw OfflineError(message)
        case .packed(let archive) where status == 0: return archive
        default: throw OfflineError("markerpaint-pack stopped (status \(status)) without saying why")
        }
    }
}
