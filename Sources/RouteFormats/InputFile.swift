import MarkerFiles
import SystemPackage
import RouteModel

/// Reads a route file or standard input whole, refusing anything over a size limit.
enum InputFile {
    /// The bytes at `path` ("-" is standard input); a regular file's size is checked before reading.
    static func read(path: String, limit: Int) throws(RouteError) -> [UInt8] {
        let name = displayName(path)
        let descriptor: FileDescriptor
        if path == "-" {
            descriptor = .standardInput
        } else {
            guard !path.isEmpty else { throw RouteError("the route file name is empty") }
            do {
                descriptor = try FileDescriptor.open(FilePath(path), .readOnly, options: [.closeOnExec])
            } catch Errno.noSuchFileOrDirectory {
                throw RouteError("\(name): no such file")
            } catch {
                throw RouteError("\(name): cannot be opened for reading (\(error))")
            }
        }
        defer { if path != "-" { try? descriptor.close() } }
        do {
            return try descriptor.readAll(limit: limit)
        } catch {
            switch error {
            case .tooLarge(let size?):
                throw RouteError(
                    "\(name): the file is \(describeSize(UInt64(size))), more than the limit of \(describeSize(UInt64(limit)))")
            case .tooLarge(nil):
                throw RouteError("\(name): more than the limit of \(describeSize(UInt64(limit))) to read")
            case .isFolder:
                throw RouteError("\(name): is a directory, not a route file")
            case .system(let reason):
                throw RouteError("\(name): cannot be read (\(reason))")
            }
        }
    }

    /// How messages name the input.
    static func displayName(_ path: String) -> String {
        path == "-" ? "standard input" : path
    }

    /// "190.7 MiB (200000000 bytes)", or "64 MiB (67108864 bytes)" when whole.
    static func describeSize(_ bytes: UInt64) -> String {
        let mebibytes = Double(bytes) / 1_048_576
        let rounded = (mebibytes * 10).rounded()
        let whole = rounded.truncatingRemainder(dividingBy: 10) == 0
        let amount = whole ? String(Int(rounded / 10)) : "\(Int(rounded / 10)).\(Int(rounded) % 10)"
        return "\(amount) MiB (\(bytes) bytes)"
    }
}
