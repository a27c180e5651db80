import SystemPackage

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// What a folder holds: its names, their kinds and sizes, read without following symlinks.
extension Folder {
    /// A name in a folder and what it is (symlinks are not followed).
    public struct Entry: Sendable, Hashable {
        public enum Kind: Sendable, Hashable { case file, folder, other }
        public var name: String
        public var kind: Kind
    }

    /// Everything in the folder but `.` and `..`, sorted by name.
    public func entries() throws(FileError) -> [Entry] {
        // fdopendir takes over the descriptor it is given, so it gets a copy of ours.
        let copy = dup(descriptor)
        guard copy >= 0, let stream = fdopendir(copy) else {
            if copy >= 0 { close(copy) }
            throw FileError("cannot list folder \(path): \(lastErrorText())")
        }
        defer { closedir(stream) }
        rewinddir(stream)
        var entries: [Entry] = []
        while let entry = readdir(stream) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            guard name != ".", name != ".." else { continue }
            entries.append(Entry(name: name, kind: Self.kind(fromDirectoryType: entry.pointee.d_type) ?? kind(of: name)))
        }
        return entries.sorted { $0.name < $1.name }
    }

    /// The kind `readdir` already gives (no stat per entry: a route folder holds thousands), or
    /// nil where the file system does not say.
    static func kind(fromDirectoryType type: UInt8) -> Entry.Kind? {
        switch Int(type) {
        case Int(DT_REG): .file
        case Int(DT_DIR): .folder
        case Int(DT_UNKNOWN): nil
        default: .other
        }
    }

    func kind(of name: String) -> Entry.Kind {
        guard let status = status(of: name) else { return .other }
        switch status.st_mode & S_IFMT {
        case S_IFREG: return .file
        case S_IFDIR: return .folder
        default: return .other
        }
    }

    /// The size in bytes of the file `name`, or nil if there is none.
    public func size(of name: String) -> Int? {
        status(of: name).map { Int($0.st_size) }
    }
}
