/// A platform target's files, by path relative to its root folder (`end-123km.imageset/Contents.json`).
public struct TargetFiles: Sendable {
    /// The root folder's name inside `--out`: `Markers.xcassets`, `res`, `web`.
    public let root: String
    /// Bytes by relative path, `/`-separated, every component a plain name.
    public private(set) var files: [String: [UInt8]] = [:]

    public init(root: String) { self.root = root }

    /// Adds a file; a path given twice is a bug in the target's naming, reported rather than overwritten.
    mutating func add(_ path: String, _ bytes: [UInt8]) throws(OutputError) {
        guard files[path] == nil else { throw OutputError("two images of the \(root) target would both be \(path)") }
        files[path] = bytes
    }
}
