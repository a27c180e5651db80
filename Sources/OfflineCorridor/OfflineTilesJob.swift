public import MarkerArchive
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

    /// A written archive, as `markerpaint-pack` reports it, the manifest records it and the offline style points at it.
    public typealias Written = PackedArchive
}
