public import SystemPackage

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
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
        var status = FileStatus()
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

/// The lines of a stream as they arrive (a line is handed over as soon as its newline is read),
/// each held to a length: a longer line is skipped to its end and reported, so a feed without
/// newlines cannot fill memory.
public struct LineReader {
    /// One line, without its line end (`\n` or `\r\n`).
    public enum Line: Equatable, Sendable {
        case text([UInt8])
        /// A line longer than the limit, skipped; how many bytes it held.
        case tooLong(bytes: Int)
    }

    private let descriptor: FileDescriptor
    private let maximumLength: Int
    private var buffer: [UInt8] = []
    private var position = 0
    private var atEnd = false

    public init(_ descriptor: FileDescriptor, maximumLength: Int) {
        self.descriptor = descriptor
        self.maximumLength = maximumLength
    }

    /// The next line, or nil at the end of the stream (a last line without a newline counts).
    public mutating func next() throws(FileDescriptor.ReadFailure) -> Line? {
        var line: [UInt8] = []
        var skipped = 0
        while true {
            if position < buffer.count {
                let end = buffer[position...].firstIndex(of: 0x0A) ?? buffer.endIndex
                let piece = buffer[position..<end]
                if skipped == 0, line.count + piece.count <= maximumLength + 1 {
                    line.append(contentsOf: piece)
                } else {
                    skipped += line.count + piece.count
                    line = []
                }
                position = end
                if end < buffer.endIndex {
                    position += 1
                    return finished(line, skipped: skipped)
                }
            }
            guard !atEnd else {
                return line.isEmpty && skipped == 0 ? nil : finished(line, skipped: skipped)
            }
            try fill()
        }
    }

    /// The line without its carriage return, or how long it was if that is over the limit.
    private func finished(_ line: [UInt8], skipped: Int) -> Line {
        var line = line
        if line.last == 0x0D { line.removeLast() }
        guard skipped == 0, line.count <= maximumLength else { return .tooLong(bytes: skipped + line.count) }
        return .text(line)
    }

    /// Reads what the stream has now (at most 64 KiB), waiting only if it has nothing.
    private mutating func fill() throws(FileDescriptor.ReadFailure) {
        buffer = [UInt8](repeating: 0, count: 1 << 16)
        position = 0
        while true {
            let count = buffer.withUnsafeMutableBytes { Glibc_read(descriptor.rawValue, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count >= 0 else { throw .system(lastErrorText()) }
            buffer.removeSubrange(count...)
            atEnd = count == 0
            return
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
