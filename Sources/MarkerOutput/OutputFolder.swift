import MarkerFiles
import SystemPackage

extension Folder {
    /// The `--out` folder at `path`, made with its parents if missing, checked writable and locked
    /// against other markerpaint runs for as long as it is open: how every output begins.
    static func lockedForOutput(_ path: FilePath) throws(OutputError) -> Folder {
        guard !path.isEmpty else { throw OutputError("the output folder's path is empty; name a folder") }
        let folder: Folder
        do { folder = try Folder.create(path) } catch { throw OutputError(error.message) }
        guard folder.isWritable else { throw OutputError("cannot write to folder \(path): permission denied") }
        let locked: Bool
        do { locked = try folder.lockExclusively() } catch { throw OutputError(error.message) }
        guard locked else { throw OutputError("another markerpaint run is writing to \(path); wait for it to finish") }
        return folder
    }
}
