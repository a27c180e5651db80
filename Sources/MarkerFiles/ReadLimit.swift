import SystemPackage

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension FileDescriptor {
    /// Why reading stopped short of the whole file.
    public enum ReadFailure: Error, Sendable, Equatable {
        /// The file holds more than the limit; `size` when it was known before reading.
        case tooLarge(size: Int?)
        /// It is a folder, not a file.
        case isFolder
        /// The system refused, in its words.
        case system(String)
    }

    /// Every byte up to end of file, refusing more than `limit`: up front when the size is known (a
    /// regular file), otherwise as soon as the limit is passed (a pipe), so memory never exceeds it.
    public func readAll(limit: Int) throws(ReadFailure) -> [UInt8] {
        var status = Glibc.stat()
        var expected = 0
        let isKnown = fstat(rawValue, &status) == 0
        if isKnown, (status.st_mode & S_IFMT) == S_IFDIR { throw .isFolder }
        if isKnown, (status.st_mode & S_IFMT) == S_IFREG {
            let size = Int(status.st_size)
            guard size <= limit else { throw .tooLarge(size: size) }
            expected = size
        }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(expected)
        // A known size is read in one call (plus one byte to see the end); a stream in 64 KiB pieces.
        let chunk = expected > 0 ? expected + 1 : 1 << 16
        while true {
            let start = bytes.count
            bytes.append(contentsOf: repeatElement(0, count: chunk))
            let count = bytes.withUnsafeMutableBytes { buffer in
                Glibc_read(rawValue, buffer.baseAddress.map { $0 + start }, chunk)
            }
            guard count >= 0 else {
                if errno == EINTR {
                    bytes.removeLast(chunk)
                    continue
                }
                throw .system(lastErrorText())
            }
            bytes.removeLast(chunk - count)
            if count == 0 { return bytes }
            guard bytes.count <= limit else { throw .tooLarge(size: nil) }
        }
    }
}

/// read(2), named apart from FileDescriptor's own `read` methods.
private func Glibc_read(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
    read(descriptor, buffer, count)
}
