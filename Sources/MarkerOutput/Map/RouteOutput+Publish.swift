import MarkerFiles
import MarkerMap
import MarkerSpec
import OfflineCorridor
import SystemPackage

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Publishing a run: drawn aside in a staging folder, then moved in whole with its manifest.
extension RouteOutput {
    /// A new hidden folder to draw into, after clearing what killed runs left.
    func makeStaging() throws(OutputError) -> Folder {
        do {
            for entry in abandoned {
                if entry.kind == .folder {
                    try folder.removeSubfolder(entry.name)
                } else {
                    try folder.removeFile(entry.name)
                }
            }
            if !abandonedOffline.isEmpty {
                let offline = try folder.subfolder(OfflineFiles.folder)
                for name in abandonedOffline { try offline.removeFile(name) }
            }
            return try folder.makeSubfolder("\(Self.stagingPrefix)\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        } catch {
            throw OutputError(error.message)
        }
    }

    /// Moves every file of `staging` into the folder and records them in `manifest`, in an order
    /// that leaves every file accounted for wherever it is interrupted; then removes the earlier
    /// run's files that `manifest` no longer lists, and the staging folder.
    func publish(_ staging: Folder, manifest: Manifest) throws(OutputError) {
        let newFiles = manifest.files ?? [:]
        do {
            if isNew, try replaceWhole(with: staging, manifest: manifest) { return }
            var intent = manifest
            intent.files = ownFiles.merging(newFiles) { _, new in new }
            try folder.write(Array(try intent.encoded()), as: Manifest.fileName)
            // One mover: the kernel serializes renames between two folders on the rename lock.
            for entry in try staging.entries() {
                if entry.kind == .folder {
                    // The offline pack's folder: its files move into the folder's own, made if missing.
                    let source = try staging.subfolder(entry.name)
                    let existing = try? folder.subfolder(entry.name)
                    let destination = try existing ?? folder.makeSubfolder(entry.name)
                    for file in try source.entries() { try source.move(file.name, to: destination, as: file.name) }
                } else {
                    try staging.move(entry.name, to: folder, as: entry.name)
                }
            }
            // Into a folder with nothing of an earlier run, the intent is already the manifest.
            if intent.files != manifest.files { try folder.write(Array(try manifest.encoded()), as: Manifest.fileName) }
            let offlinePrefix = "\(OfflineFiles.folder)/"
            for name in ownFiles.keys where newFiles[name] == nil && name != Manifest.fileName {
                if name.hasPrefix(offlinePrefix) {
                    try folder.subfolder(OfflineFiles.folder).removeFile(String(name.dropFirst(offlinePrefix.count)))
                } else {
                    try folder.removeFile(name)
                }
            }
            // A pack an earlier run wrote and this one does not leaves no empty folder behind.
            if ownFiles.keys.contains(where: { $0.hasPrefix(offlinePrefix) }), !newFiles.keys.contains(where: { $0.hasPrefix(offlinePrefix) }),
                let offline = try? folder.subfolder(OfflineFiles.folder),
                (try offline.entries()).isEmpty
            {
                try folder.removeSubfolder(OfflineFiles.folder)
            }
            try folder.removeSubfolder(staging.path.lastComponent?.string ?? "")
        } catch let error as FileError {
            throw OutputError(error.message)
        } catch let error as OutputError {
            throw error
        } catch {
            throw OutputError("cannot encode the manifest: \(error)")
        }
    }

    /// Puts `staging`, with `manifest` written into it, in the place of the folder this run made,
    /// if it still stands there empty; false, with nothing changed, if it does not. A run killed
    /// between the two renames leaves the folder empty and the staging folder beside it as
    /// `.<name>.markerpaint-publishing`.
    private func replaceWhole(with staging: Folder, manifest: Manifest) throws -> Bool {
        guard let name = path.lastComponent?.string, let stagingName = staging.path.lastComponent?.string,
            let identity = folder.identity
        else { return false }
        let parentPath = path.removingLastComponent()
        let parent = try Folder.open(parentPath.isEmpty ? "." : parentPath)
        guard parent.identity(of: name) == identity, try folder.entries().map(\.name) == [stagingName] else { return false }
        try staging.write(Array(try manifest.encoded()), as: Manifest.fileName)
        try staging.copyPermissions(from: folder)
        let publishing = ".\(name).markerpaint-publishing"
        guard parent.identity(of: publishing) == nil else { return false }
        try folder.move(stagingName, to: parent, as: publishing)
        do {
            // Over an empty folder, rename replaces it in one step; a file put in it meanwhile stops it.
            guard parent.identity(of: name) == identity else { throw FileError("\(path) was replaced") }
            try parent.move(publishing, to: parent, as: name)
        } catch {
            try parent.move(publishing, to: folder, as: stagingName)
            try? staging.removeFile(Manifest.fileName)
            return false
        }
        return true
    }

    /// Removes a staging folder whose run failed, leaving the folder as it was.
    func discard(_ staging: Folder) {
        try? folder.removeSubfolder(staging.path.lastComponent?.string ?? "")
    }

    /// A name ending in `-<hash>.png` whose hash is the start of the bytes' own SHA-256: an image
    /// markerpaint drew (nothing else carries the hash of its own bytes in its name).
    static func isContentHashedImage(_ name: String, sha256: String) -> Bool {
        hashInName(name).map { sha256.hasPrefix($0) } ?? false
    }

    /// Whether `name` has the form of a content-hashed image name, `…-<10 hex>.png`.
    static func isContentHashedName(_ name: String) -> Bool {
        hashInName(name) != nil
    }

    private static func hashInName(_ name: String) -> Substring? {
        guard name.hasSuffix(".png") else { return nil }
        let stem = name.dropLast(4)
        guard let dash = stem.lastIndex(of: "-") else { return nil }
        let hash = stem[stem.index(after: dash)...]
        guard hash.count == ImageName.hashLength, hash.allSatisfy({ $0.isHexDigit && !$0.isUppercase }) else { return nil }
        return hash
    }
}
