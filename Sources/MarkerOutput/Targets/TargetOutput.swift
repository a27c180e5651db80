import MarkerFiles
import MarkerSpec
public import SystemPackage

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#endif

/// Writes a platform target's folder (`Markers.xcassets`, `res`, `web`) into `--out`, whole or not
/// at all, replacing only a folder markerpaint wrote.
///
/// `--out` may hold anything else: an app project's folder, say. markerpaint touches only its root
/// folder, its record beside it (`markerpaint-ios.json`: every file with its SHA-256) and a hidden
/// staging folder. An existing root is replaced only if every file in it is one the record lists,
/// unchanged; anything else there, and the run is refused before anything is drawn.
///
/// The tree is drawn into the staging folder, then swapped in by renames: the old root moves into
/// the staging folder, the record is rewritten, the new root moves into place, and the staging
/// folder (with the old root) is removed. A run killed at any point leaves the root absent, old or
/// new, each matching its record or with no record to contradict it.
public struct TargetOutput {
    /// The folder given as `--out`, open and locked for this run.
    let folder: Folder
    let target: PlatformTarget

    /// Prefix of the folder a run draws into; the pid and a random number follow.
    static let stagingPrefix = ".markerpaint-target-"
    static let maximumRecordBytes = 64 << 20

    /// Opens `path` (making it and its parents if missing), locks it, and checks that the target's
    /// root, if there is one, is markerpaint's to replace.
    public init(_ path: FilePath, target: PlatformTarget) throws(OutputError) {
        folder = try Folder.lockedForOutput(path).folder
        self.target = target
        try checkReplaceable()
        try removeAbandonedStaging()
    }

    /// Removes the staging folders of killed runs: named `.markerpaint-target-<pid>-<n>` by a process
    /// no longer running, and holding only what a run puts there (the new root, the old one moved aside).
    private func removeAbandonedStaging() throws(OutputError) {
        let entries: [Folder.Entry]
        do { entries = try folder.entries() } catch { throw OutputError(error.message) }
        for entry in entries where entry.kind == .folder && entry.name.hasPrefix(Self.stagingPrefix) {
            let parts = entry.name.dropFirst(Self.stagingPrefix.count).split(separator: "-", omittingEmptySubsequences: false)
            guard parts.count == 2, let pid = Int32(parts[0]), UInt32(parts[1]) != nil, !ProcessLiveness.isRunning(pid),
                let inside = try? folder.subfolder(entry.name).entries(),
                inside.allSatisfy({ $0.kind == .folder && [target.rootName, target.rootName + ".old"].contains($0.name) })
            else { continue }
            do { try folder.removeSubfolder(entry.name) } catch { throw OutputError(error.message) }
        }
    }

    /// The root's path, where the target is written.
    public var rootPath: FilePath { folder.path(of: target.rootName) }

    /// Throws unless the root is absent, or holds exactly the files its record lists, unchanged.
    private func checkReplaceable() throws(OutputError) {
        let root = target.rootName
        let entries: [Folder.Entry]
        do { entries = try folder.entries() } catch { throw OutputError(error.message) }
        guard let entry = entries.first(where: { $0.name == root }) else { return }
        let refusal =
            "; move it away or choose another --out folder (markerpaint replaces only a \(root) it wrote, as \(target.recordName) records)"
        guard entry.kind == .folder else { throw OutputError("\(folder.path(of: root)) is not a folder markerpaint wrote\(refusal)") }
        let recorded = try record()
        guard let recorded else { throw OutputError("\(folder.path(of: root)) has no \(target.recordName) beside it\(refusal)") }
        let rootFolder = try Self.asOutputError { try folder.subfolder(root) }
        try Self.walk(rootFolder, prefix: "") { (path, bytes) throws(OutputError) in
            guard let expected = recorded[path] else {
                throw OutputError("\(folder.path(of: root + "/" + path)) was not written by markerpaint\(refusal)")
            }
            guard let bytes, expected == ContentHash.sha256Hex(bytes) else {
                throw OutputError("\(folder.path(of: root + "/" + path)) was changed after markerpaint wrote it\(refusal)")
            }
        }
    }

    /// Every file under `folder`, by path relative to it, with its bytes (nil if not a plain file
    /// or too large to be one of ours). Folders are entered, never through a symlink.
    private static func walk(
        _ folder: Folder, prefix: String, _ visit: (String, [UInt8]?) throws(OutputError) -> Void
    ) throws(OutputError) {
        let entries: [Folder.Entry]
        do { entries = try folder.entries() } catch { throw OutputError(error.message) }
        for entry in entries {
            let path = prefix + entry.name
            switch entry.kind {
            case .folder:
                let inner: Folder
                do { inner = try folder.subfolder(entry.name) } catch { throw OutputError(error.message) }
                try walk(inner, prefix: path + "/", visit)
            case .file:
                let bytes = try? folder.contents(of: entry.name, limit: maximumRecordBytes)
                try visit(path, bytes ?? nil)
            case .other:
                try visit(path, nil)
            }
        }
    }

    /// The files the record beside the root lists, with their SHA-256; nil if there is no record.
    private func record() throws(OutputError) -> [String: String]? {
        let bytes: [UInt8]?
        do { bytes = try folder.contents(of: target.recordName, limit: Self.maximumRecordBytes) } catch { return nil }
        guard let bytes else { return nil }
        guard let record = try? JSONDecoder().decode(TargetRecord.self, from: Data(bytes)), record.generator == "markerpaint" else {
            throw OutputError("\(folder.path(of: target.recordName)) is not a record markerpaint wrote; move it away")
        }
        return record.files
    }

    /// A target's folder being drawn: hidden in `--out` until published, every subfolder made.
    struct Staging: Sendable {
        let name: String
        let folder: Folder
        /// The root's name (`Markers.xcassets`).
        let root: String
        /// The root's subfolders by path (`end-123km.imageset`), and the root itself under "".
        let folders: [String: Folder]

        /// The staged folder `path` (relative to the root) goes in, and its last component.
        func place(_ path: String) throws(OutputError) -> (folder: Folder, name: String) {
            let (parent, name) = Self.split(path)
            guard let folder = folders[parent] else { throw OutputError("no staged folder \(parent) for \(path)") }
            return (folder, name)
        }

        /// `a/b/c` as (`a/b`, `c`); a name alone has the root, "", as its parent.
        static func split(_ path: String) -> (parent: String, name: String) {
            guard let slash = path.lastIndex(of: "/") else { return ("", path) }
            return (String(path[..<slash]), String(path[path.index(after: slash)...]))
        }
    }

    /// A new staging folder holding the layout's root and every folder its images go in.
    func makeStaging(for layout: TargetLayout) throws(OutputError) -> Staging {
        let name = "\(Self.stagingPrefix)\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        return try Self.asOutputError { () throws -> Staging in
            let staging = try folder.makeSubfolder(name)
            do {
                var folders = ["": try staging.makeSubfolder(layout.root)]
                for path in layout.folders {
                    let (parent, component) = Staging.split(path)
                    guard let above = folders[parent] else { throw OutputError("no staged folder \(parent) for \(path)") }
                    folders[path] = try above.makeSubfolder(component)
                }
                return Staging(name: name, folder: staging, root: layout.root, folders: folders)
            } catch {
                try? folder.removeSubfolder(name)
                throw error
            }
        }
    }

    /// Writes `documents` into the staged root, then swaps it in for the old one (checked when
    /// this was opened) and records every file: `drawn` (images by path, with their SHA-256) and the documents.
    func publish(_ staging: Staging, documents: [String: [UInt8]], drawn: [String: String]) throws(OutputError) {
        let root = staging.root
        var recorded = drawn
        try Self.asOutputError {
            for (path, bytes) in documents.sorted(by: { $0.key < $1.key }) {
                let (folder, name) = try staging.place(path)
                try folder.writeNew(bytes, as: name)
                recorded[path] = ContentHash.sha256Hex(bytes)
            }
            let hasOld = (try folder.entries()).contains { $0.name == root }
            if hasOld { try folder.move(root, to: staging.folder, as: root + ".old") }
            try folder.write(try TargetRecord.encode(target: target, root: root, files: recorded), as: target.recordName)
            try staging.folder.move(root, to: folder, as: root)
            try folder.removeSubfolder(staging.name)
        }
    }

    /// `body`'s result, its file errors (and any other) as `OutputError`s.
    private static func asOutputError<Value>(_ body: () throws -> Value) throws(OutputError) -> Value {
        do { return try body() } catch { throw OutputError(carrying: error) }
    }

    /// Removes a staging folder whose run failed, leaving `--out` as it was.
    func discard(_ staging: Staging) {
        try? folder.removeSubfolder(staging.name)
    }
}

/// `markerpaint-<target>.json`: what a target run wrote, so that the next may replace it.
struct TargetRecord: Codable {
    var generator: String
    var target: String
    var root: String
    var files: [String: String]

    static func encode(target: PlatformTarget, root: String, files: [String: String]) throws(OutputError) -> [UInt8] {
        let listed = files.sorted { $0.key < $1.key }.map { JSONValue.Member($0.key, .string($0.value)) }
        return try AssetCatalog.json(
            .object([
                .init("files", .object(listed)), .init("generator", .string("markerpaint")), .init("root", .string(root)),
                .init("target", .string(target.rawValue)),
            ]))
    }
}
