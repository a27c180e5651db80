import Foundation
import MarkerFiles
import SystemPackage
import TestSupport
import Testing

/// Folders and files by `FilePath`: replacement in one step, files that must be new, reads held to
/// a limit, no symlink followed, and standard input read a line at a time within a length.
@Suite("folders and files")
struct FolderTests {
    @Test("write replaces a file in one step and leaves no temporary file beside it")
    func replaces() throws {
        let temporary = try TemporaryFolder("markerpaint-files")
        let folder = try Folder.create(FilePath(temporary.url.path))
        _ = try folder.write(Array("first".utf8), as: "a.txt")
        _ = try folder.write(Array("second, longer".utf8), as: "a.txt")
        #expect(try folder.contents(of: "a.txt", limit: 100) == Array("second, longer".utf8))
        #expect(try folder.entries().map(\.name) == ["a.txt"])
    }

    @Test("writeNew refuses a name that is taken, and keeps what is there")
    func writeNew() throws {
        let temporary = try TemporaryFolder("markerpaint-files")
        let folder = try Folder.create(FilePath(temporary.url.path))
        try folder.writeNew(Array("mine".utf8), as: "b.txt")
        #expect(throws: FileError.self) { try folder.writeNew(Array("other".utf8), as: "b.txt") }
        #expect(try folder.contents(of: "b.txt", limit: 100) == Array("mine".utf8))
    }

    @Test("contents refuses a file over the limit, reads none that is missing, and follows no symlink")
    func limits() throws {
        let temporary = try TemporaryFolder("markerpaint-files")
        let folder = try Folder.create(FilePath(temporary.url.path))
        _ = try folder.write([UInt8](repeating: 7, count: 1000), as: "big")
        #expect(throws: FileError.self) { try folder.contents(of: "big", limit: 999) }
        #expect(try folder.contents(of: "big", limit: 1000)?.count == 1000)
        #expect(try folder.contents(of: "missing", limit: 10) == nil)
        try FileManager.default.createSymbolicLink(atPath: temporary.url.appendingPathComponent("link").path, withDestinationPath: "big")
        #expect((try? folder.contents(of: "link", limit: 2000)) == nil)
    }

    @Test(
        "lines are read whole, the last without a newline too, and one past the limit is skipped with its length",
        arguments: [
            ("a\nbb\r\nccc", [LineReader.Line.text(Array("a".utf8)), .text(Array("bb".utf8)), .text(Array("ccc".utf8))]),
            ("short\n0123456789ABCDEF\nend\n", [.text(Array("short".utf8)), .tooLong(bytes: 16), .text(Array("end".utf8))]),
        ])
    func lines(input: String, expected: [LineReader.Line]) throws {
        let temporary = try TemporaryFolder("markerpaint-files")
        let path = temporary.path("input")
        try Data(input.utf8).write(to: URL(fileURLWithPath: path.string))
        let file = try FileDescriptor.open(path, .readOnly)
        defer { try? file.close() }
        var reader = LineReader(file, maximumLength: 10)
        var lines: [LineReader.Line] = []
        while let line = try reader.next() { lines.append(line) }
        #expect(lines == expected)
    }
}
