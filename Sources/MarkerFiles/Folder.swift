public import SystemPackage

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// An open folder. Every operation is relative to its descriptor, so the folder cannot change
/// under a run (a rename, a symlink swapped), and files are replaced atomically: written under a
/// temporary name in the same folder, then renamed over the old one.
public final class Folder: Sendable {
    /// The path the folder was opened at, for messages.
    public let path: FilePath
    let descriptor: Int32

    private init(path: FilePath, descriptor: Int32) {
        self.path = path
        self.descriptor = descriptor
    }

    deinit {
        close(descriptor)
    }

    /// Opens the folder at `path` (following symlinks), which must exist.
    public static func open(_ path: FilePath) throws(FileError) -> Folder {
        guard !path.isEmpty else { throw FileError("the folder path is empty") }
        let descriptor = path.withCString { systemOpen($0, O_RDONLY | O_DIRECTORY | O_CLOEXEC) }
        guard descriptor >= 0 else {
            let reason = errno == ENOTDIR ? "it is not a folder" : lastErrorText()
            throw FileError("cannot open folder \(path): \(reason)")
        }
        return Folder(path: path, descriptor: descriptor)
    }

    /// Opens the folder at `path`, making it and any missing parents first.
    public static func create(_ path: FilePath) throws(FileError) -> Folder {
        try createReportingNew(path).folder
    }

    /// Opens the folder at `path`, making it and any missing parents first, and says whether this
    /// call made the folder itself (so nothing but this process can have put anything in it yet).
    public static func createReportingNew(_ path: FilePath) throws(FileError) -> (folder: Folder, isNew: Bool) {
        guard !path.isEmpty else { throw FileError("the folder path is empty") }
        var partial = FilePath()
        partial.root = path.root
        var madeLast = false
        for component in path.components {
            partial.append(component)
            let made = partial.withCString { mkdir($0, 0o777) }
            // EEXIST is fine if it is a folder (or a link to one): open below says if it is not.
            guard made == 0 || errno == EEXIST else {
                throw FileError("cannot make folder \(partial): \(lastErrorText())")
            }
            madeLast = made == 0
        }
        return (try open(path), madeLast)
    }

    /// Which file-system object a descriptor or name refers to, whatever path reaches it.
    public struct Identity: Sendable, Hashable {
        let device: UInt64
        let inode: UInt64

        init(_ status: FileStatus) {
            device = UInt64(status.st_dev)
            inode = UInt64(status.st_ino)
        }
    }

    /// The object this folder's descriptor holds: after a rename it still names the same one.
    public var identity: Identity? {
        var status = FileStatus()
        guard fstat(descriptor, &status) == 0 else { return nil }
        return Identity(status)
    }

    /// The object `name` is in this folder now (a symlink itself, not what it points to), or nil if there is none.
    public func identity(of name: String) -> Identity? {
        status(of: name).map(Identity.init)
    }

    /// What `fstatat` says of `name` here, not following a symlink; nil if there is no such name.
    func status(of name: String) -> FileStatus? {
        var status = FileStatus()
        return fstatat(descriptor, name, &status, AT_SYMLINK_NOFOLLOW) == 0 ? status : nil
    }

    /// Gives this folder the permission bits of `other` (a folder about to take `other`'s place).
    public func copyPermissions(from other: Folder) throws(FileError) {
        var status = FileStatus()
        guard fstat(other.descriptor, &status) == 0, fchmod(descriptor, status.st_mode & 0o7777) == 0 else {
            throw FileError("cannot set the permissions of \(path): \(lastErrorText())")
        }
    }

    /// The path of `name` inside this folder.
    public func path(of name: String) -> FilePath {
        path.appending(name)
    }

    /// Whether this process may create and remove files here.
    public var isWritable: Bool {
        faccessat(descriptor, ".", W_OK | X_OK, 0) == 0
    }

    /// Takes this folder's exclusive lock for as long as this `Folder` lives; false if another process holds it.
    public func lockExclusively() throws(FileError) -> Bool {
        if retryingInterrupts({ flock(descriptor, LOCK_EX | LOCK_NB) }) == 0 { return true }
        if errno == EWOULDBLOCK { return false }
        throw FileError("cannot lock folder \(path): \(lastErrorText())")
    }

    // MARK: Files

    /// The bytes of the file `name`, or nil if there is none; refuses a file over `limit` and
    /// never follows a symlink.
    public func contents(of name: String, limit: Int) throws(FileError) -> [UInt8]? {
        try checkName(name)
        let file = retryingInterrupts { openat(descriptor, name, O_RDONLY | O_CLOEXEC | O_NOFOLLOW) }
        guard file >= 0 else {
            if errno == ENOENT { return nil }
            throw FileError("cannot read \(path(of: name)): \(lastErrorText())")
        }
        let handle = FileDescriptor(rawValue: file)
        defer { try? handle.close() }
        do {
            return try handle.readAll(limit: limit)
        } catch {
            switch error {
            case .tooLarge:
                throw FileError("\(path(of: name)) is larger than the \(limit) bytes markerpaint reads from it")
            case .isFolder:
                throw FileError("\(path(of: name)) is a folder, not a file")
            case .system(let reason):
                throw FileError("cannot read \(path(of: name)): \(reason)")
            }
        }
    }

    /// Reads the file `name` a chunk at a time, handing each to `body`; false if there is no such
    /// file. For files too large to read whole (an offline pack).
    public func readChunks(of name: String, _ body: (ArraySlice<UInt8>) -> Void) throws(FileError) -> Bool {
        try checkName(name)
        let file = retryingInterrupts { openat(descriptor, name, O_RDONLY | O_CLOEXEC | O_NOFOLLOW) }
        guard file >= 0 else {
            if errno == ENOENT { return false }
            throw FileError("cannot read \(path(of: name)): \(lastErrorText())")
        }
        defer { close(file) }
        var buffer = [UInt8](repeating: 0, count: 1 << 20)
        while true {
            let read = buffer.withUnsafeMutableBytes { systemRead(file, $0.baseAddress, $0.count) }
            if read < 0 {
                if errno == EINTR { continue }
                throw FileError("cannot read \(path(of: name)): \(lastErrorText())")
            }
            if read == 0 { return true }
            body(buffer[0..<read])
        }
    }

    /// Writes `bytes` as `name`, replacing any file of that name in one step: a reader sees the old
    /// file or the whole new one, never a part. Returns the file's path.
    @discardableResult
    public func write(_ bytes: [UInt8], as name: String) throws(FileError) -> FilePath {
        try checkName(name)
        let temporary = TemporaryName.make(for: name)
        try writeNew(bytes, as: temporary)
        guard renameat(descriptor, temporary, descriptor, name) == 0 else {
            let reason = lastErrorText()
            unlinkat(descriptor, temporary, 0)
            throw FileError("cannot write \(path(of: name)): \(reason)")
        }
        return path(of: name)
    }

    /// Writes `bytes` as a new file `name`, which must not exist yet (for staging folders, whose
    /// files are published by `move` once all are written).
    public func writeNew(_ bytes: [UInt8], as name: String) throws(FileError) {
        try checkName(name)
        let file = retryingInterrupts { openat(descriptor, name, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644) }
        guard file >= 0 else { throw FileError("cannot write \(path(of: name)): \(lastErrorText())") }
        var failure: String?
        bytes.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count, let base = buffer.baseAddress {
                let written = systemWrite(file, base + offset, buffer.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    failure = lastErrorText()
                    return
                }
                offset += written
            }
        }
        if close(file) != 0, failure == nil { failure = lastErrorText() }
        if let failure {
            unlinkat(descriptor, name, 0)
            throw FileError("cannot write \(path(of: name)): \(failure)")
        }
    }

    /// Moves the file `name` into `destination` as `newName`, replacing a file of that name in one
    /// step; a folder too, over an empty folder of that name only.
    public func move(_ name: String, to destination: Folder, as newName: String) throws(FileError) {
        try checkName(name)
        try checkName(newName)
        guard renameat(descriptor, name, destination.descriptor, newName) == 0 else {
            throw FileError("cannot move \(path(of: name)) to \(destination.path(of: newName)): \(lastErrorText())")
        }
    }

    /// Removes the file `name`; a file already gone is not an error.
    public func removeFile(_ name: String) throws(FileError) {
        try checkName(name)
        guard unlinkat(descriptor, name, 0) == 0 || errno == ENOENT else {
            throw FileError("cannot remove \(path(of: name)): \(lastErrorText())")
        }
    }

    // MARK: Subfolders

    /// Makes the new subfolder `name` and opens it.
    public func makeSubfolder(_ name: String) throws(FileError) -> Folder {
        try checkName(name)
        guard mkdirat(descriptor, name, 0o755) == 0 else {
            throw FileError("cannot make folder \(path(of: name)): \(lastErrorText())")
        }
        return try subfolder(name)
    }

    /// Opens the existing subfolder `name` (not through a symlink).
    public func subfolder(_ name: String) throws(FileError) -> Folder {
        try checkName(name)
        let opened = retryingInterrupts { openat(descriptor, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC) }
        guard opened >= 0 else { throw FileError("cannot open folder \(path(of: name)): \(lastErrorText())") }
        return Folder(path: path(of: name), descriptor: opened)
    }

    /// Removes the subfolder `name` with everything in it (folders inside, never through a symlink).
    public func removeSubfolder(_ name: String) throws(FileError) {
        let inner = try subfolder(name)
        for entry in try inner.entries() {
            if entry.kind == .folder {
                try inner.removeSubfolder(entry.name)
            } else {
                try inner.removeFile(entry.name)
            }
        }
        guard unlinkat(descriptor, name, AT_REMOVEDIR) == 0 || errno == ENOENT else {
            throw FileError("cannot remove \(path(of: name)): \(lastErrorText())")
        }
    }

    /// Names are single path components of this folder: never empty, `.`, `..` or holding a `/`.
    private func checkName(_ name: String) throws(FileError) {
        guard !name.isEmpty, name != ".", name != "..", !name.utf8.contains(UInt8(ascii: "/")), !name.utf8.contains(0) else {
            throw FileError("\"\(name)\" is not a file name in \(path)")
        }
    }
}

/// Temporary names of files being written: `.NAME.PID.RANDOM.tmp`, hidden, unique, and traceable
/// to the process that made them, so a later run can tell an abandoned one from a live one.
public enum TemporaryName {
    static func make(for name: String) -> String {
        ".\(name).\(getpid()).\(UInt32.random(in: 0...UInt32.max)).tmp"
    }

    /// Whether `name` is a temporary name of a process that is no longer running.
    public static func isAbandoned(_ name: String) -> Bool {
        guard name.hasPrefix("."), name.hasSuffix(".tmp") else { return false }
        let parts = name.dropLast(4).split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count >= 4, UInt32(parts[parts.count - 1]) != nil, let pid = Int32(parts[parts.count - 2]) else { return false }
        return !ProcessLiveness.isRunning(pid)
    }
}

/// Whether a process is running, for telling abandoned work from work in progress.
public enum ProcessLiveness {
    public static func isRunning(_ pid: Int32) -> Bool {
        guard pid > 0 else { return false }
        if pid == getpid() { return true }
        return kill(pid, 0) == 0 || errno == EPERM
    }
}
