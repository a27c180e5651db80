public import SystemPackage

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
        // Read in pieces and copy each in: appending through a scratch buffer costs a memcpy, where
        // growing the array with zeros first and trimming it costs a pass per element in debug builds.
        var piece = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = piece.withUnsafeMutableBytes { Glibc_read(rawValue, $0.baseAddress, $0.count) }
            guard count >= 0 else {
                if errno == EINTR { continue }
                throw .system(lastErrorText())
            }
            if count == 0 { return bytes }
            guard bytes.count + count <= limit else { throw .tooLarge(size: nil) }
            piece.withUnsafeBufferPointer { bytes.append(contentsOf: UnsafeBufferPointer(rebasing: $0[..<count])) }
        }
    }
}

/// read(2), named apart from FileDescriptor's own `read` methods.
private func Glibc_read(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
    read(descriptor, buffer, count)
}

extension FilePath {
    /// The whole file at this path, refusing more than `limit` bytes, with one line saying what
    /// went wrong (without the path, which the caller names as it names the file).
    public func readAll(limit: Int) throws(FileError) -> [UInt8] {
        let file: FileDescriptor
        do {
            file = try FileDescriptor.open(self, .readOnly, options: [.closeOnExec])
        } catch Errno.noSuchFileOrDirectory {
            throw FileError("no such file")
        } catch {
            throw FileError("cannot be opened (\(error))")
        }
        defer { try? file.close() }
        do {
            return try file.readAll(limit: limit)
        } catch {
            switch error {
            case .tooLarge: throw FileError("is larger than \(limit) bytes")
            case .isFolder: throw FileError("is a folder")
            case .system(let reason): throw FileError("cannot be read (\(reason))")
            }
        }
    }
}
