import Foundation

/// Reads a route file or standard input whole, refusing anything over a size limit.
enum InputFile {
    /// The bytes at `path` ("-" is standard input); `limit` is checked before reading when the size is known.
    static func read(path: String, limit: Int) throws(RouteError) -> [UInt8] {
        let name = displayName(path)
        let handle: FileHandle
        if path == "-" {
            handle = .standardInput
        } else {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
                throw RouteError("\(name): no such file")
            }
            guard !isDirectory.boolValue else { throw RouteError("\(name): is a directory, not a route file") }
            guard let file = FileHandle(forReadingAtPath: path) else {
                throw RouteError("\(name): cannot be opened for reading")
            }
            handle = file
        }
        defer { if path != "-" { try? handle.close() } }

        // A seekable input tells its size up front, so an oversized file is refused without reading it.
        // Pipes cannot seek; for them the limit is enforced while reading.
        var bytes: [UInt8] = []
        if let start = try? handle.offset(), let end = try? handle.seekToEnd(), end >= start {
            try? handle.seek(toOffset: start)
            guard end - start <= UInt64(limit) else {
                throw RouteError(
                    "\(name): the file is \(describeSize(end - start)), more than the limit of \(describeSize(UInt64(limit)))")
            }
            bytes.reserveCapacity(Int(end - start))
        }
        while true {
            let chunk: Data?
            do {
                chunk = try handle.read(upToCount: 1 << 20)
            } catch {
                throw RouteError("\(name): cannot be read (\(error.localizedDescription))")
            }
            guard let chunk, !chunk.isEmpty else { break }
            bytes.append(contentsOf: chunk)
            if bytes.count > limit {
                throw RouteError("\(name): more than the limit of \(describeSize(UInt64(limit))) to read")
            }
        }
        return bytes
    }

    /// How messages name the input.
    static func displayName(_ path: String) -> String {
        path == "-" ? "standard input" : path
    }

    /// "190.7 MiB (200000000 bytes)", or "64 MiB (67108864 bytes)" when whole.
    static func describeSize(_ bytes: UInt64) -> String {
        let mebibytes = Double(bytes) / 1_048_576
        let rounded = (mebibytes * 10).rounded() / 10
        let amount = rounded == rounded.rounded() ? String(Int(rounded)) : String(rounded)
        return "\(amount) MiB (\(bytes) bytes)"
    }
}
