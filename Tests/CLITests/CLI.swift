import Foundation
import TestSupport

/// Runs the real `markerpaint` executable, built beside the test bundle.
struct CLI {
    struct Run {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    static let executable: URL = {
        let testBinary = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        var folder = testBinary.deletingLastPathComponent()
        // Swift Testing may run from inside the .xctest bundle folder.
        while folder.path != "/" {
            let candidate = folder.appendingPathComponent("markerpaint")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            folder.deleteLastPathComponent()
        }
        fatalError("markerpaint executable not found near \(testBinary.path)")
    }()

    /// Runs `markerpaint arguments` (or another copy of it, `executable`) in `directory` and waits
    /// for it; `input` goes to its stdin.
    static func run(_ arguments: [String], in directory: URL, input: Data? = nil, executable: URL = executable) throws -> Run {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.currentDirectoryURL = directory
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        let stdin = Pipe()
        process.standardInput = stdin
        try process.run()
        if let input { stdin.fileHandleForWriting.write(input) }
        try stdin.fileHandleForWriting.close()
        let stdout = out.fileHandleForReading.readDataToEndOfFile()
        let stderr = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Run(
            status: process.terminationStatus, stdout: String(decoding: stdout, as: UTF8.self),
            stderr: String(decoding: stderr, as: UTF8.self))
    }

    /// A new empty folder, removed by the caller.
    static func temporaryFolder() throws -> URL { try TemporaryFolder.make("markerpaint-cli") }

    static func files(in folder: URL) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
    }
}

extension CLI {
    /// A run with what it cost: the processor time it took (user and system) and its peak resident memory.
    struct MeasuredRun {
        var status: Int32
        var stderr: String
        /// Processor seconds, not wall-clock ones: the work an input caused, whatever else the machine is doing.
        var cpuSeconds: Double
        var peakResidentBytes: Int
    }

    /// Runs `markerpaint arguments` in `directory` under GNU time, which forks it from its own small
    /// process and reads its peak memory with wait4. (Spawned from the test process directly, the
    /// kernel would count the test process's own memory into the child's peak.)
    static func measuredRun(_ arguments: [String], in directory: URL) throws -> MeasuredRun {
        let report = directory.appendingPathComponent(".time-\(UUID())")
        defer { try? FileManager.default.removeItem(at: report) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/time")
        process.arguments = ["-f", "%M %U %S", "-o", report.path, executable.path] + arguments
        process.currentDirectoryURL = directory
        let err = Pipe()
        process.standardOutput = FileHandle.nullDevice
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let stderr = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        // GNU time adds "Command exited with non-zero status N" before its figures.
        let figures = try String(contentsOf: report, encoding: .utf8).split(separator: "\n").last?.split(separator: " ") ?? []
        guard figures.count == 3, let kilobytes = Int(figures[0]), let user = Double(figures[1]), let system = Double(figures[2]) else {
            throw CocoaError(.fileReadCorruptFile)
        }
        return MeasuredRun(
            status: process.terminationStatus, stderr: String(decoding: stderr, as: UTF8.self),
            cpuSeconds: user + system, peakResidentBytes: kilobytes * 1024)
    }
}
