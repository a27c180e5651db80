import Foundation

/// Writes files so that a reader sees the old file or the whole new one, never a part.
public enum AtomicFile {
    /// Writes `bytes` to `directory/name` through a temporary file in the same folder and a rename.
    @discardableResult
    public static func write(_ bytes: [UInt8], to directory: String, name: String) throws(RenderError) -> String {
        let path = directory.hasSuffix("/") ? directory + name : directory + "/" + name
        let temporary = "\(directory)/.\(name).\(getpid()).\(UInt32.random(in: 0...UInt32.max)).tmp"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            throw RenderError("cannot write to folder \(directory): \(String(cString: strerror(errno)))")
        }
        var failure = writeAll(bytes, to: descriptor)
        if close(descriptor) != 0, failure == nil { failure = String(cString: strerror(errno)) }
        if failure == nil, rename(temporary, path) != 0 { failure = String(cString: strerror(errno)) }
        if let failure {
            unlink(temporary)
            throw RenderError("cannot write \(path): \(failure)")
        }
        return path
    }

    /// Writes `bytes` to a new file at `path` directly, for folders that are published whole later.
    public static func writeNew(_ bytes: [UInt8], to path: String) throws(RenderError) {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw RenderError("cannot write \(path): \(String(cString: strerror(errno)))") }
        var failure = writeAll(bytes, to: descriptor)
        if close(descriptor) != 0, failure == nil { failure = String(cString: strerror(errno)) }
        if let failure { throw RenderError("cannot write \(path): \(failure)") }
    }

    /// Writes every byte, retrying short writes and interruptions; the reason on failure.
    private static func writeAll(_ bytes: [UInt8], to descriptor: Int32) -> String? {
        bytes.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = Foundation.write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    return String(cString: strerror(errno))
                }
                offset += written
            }
            return nil
        }
    }
}
