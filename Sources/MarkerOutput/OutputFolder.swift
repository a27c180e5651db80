import MarkerFiles
import SystemPackage

extension Folder {
    /// The `--out` folder at `path`, made with its parents if missing, checked writable and locked
    /// against other markerpaint runs for as long as it is open: how every output begins. `isNew`
    /// says whether this run made it.
    static func lockedForOutput(_ path: FilePath) throws(OutputError) -> (folder: Folder, isNew: Bool) {
        guard !path.isEmpty else { throw OutputError("the output folder's path is empty; name a folder") }
        // A run into a folder it made publishes by putting a whole folder in its place (`RouteOutput`):
        // a folder opened just before that and locked just after is no longer the one at `path`.
        for _ in 0..<3 {
            let (folder, isNew): (Folder, Bool)
            do { (folder, isNew) = try Folder.createReportingNew(path) } catch { throw OutputError(error.message) }
            guard folder.isWritable else { throw OutputError("cannot write to folder \(path): permission denied") }
            let locked: Bool
            do { locked = try folder.lockExclusively() } catch { throw OutputError(error.message) }
            guard locked else { throw OutputError("another markerpaint run is writing to \(path); wait for it to finish") }
            if let identity = folder.identity, (try? Folder.open(path))?.identity == identity { return (folder, isNew) }
        }
        throw OutputError("the folder at \(path) keeps being replaced while markerpaint opens it; wait for other runs to finish")
    }
}
