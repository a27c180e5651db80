import Foundation

/// python3 as a child process (MapLibre Native through mapli, MapLibre GL JS in Chromium), awaited
/// without holding a thread: on two cores the service under test may need every one.
public enum Python {
    /// A script that exited unsuccessfully, with what it wrote to standard error.
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    /// The test scripts every target shares, `Tests/Scripts/<name>`.
    public static func mapScript(_ name: String) -> String {
        Repository.path("Tests/Scripts/\(name)")
    }

    /// Runs `python3 arguments`; returns its standard output, or throws `Failure` with its standard
    /// error when it exits with a status not in `exitStatuses` (a check may exit 1 with its report).
    @discardableResult
    public static func run(_ arguments: [String], exitStatuses: Set<Int32> = [0]) async throws -> String {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("python-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        // Files, not pipes: nothing has to drain them while the script runs.
        let output = folder.appendingPathComponent("stdout")
        let errors = folder.appendingPathComponent("stderr")
        for file in [output, errors] { _ = FileManager.default.createFile(atPath: file.path, contents: nil) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3"] + arguments
        process.standardOutput = try FileHandle(forWritingTo: output)
        process.standardError = try FileHandle(forWritingTo: errors)
        process.standardInput = FileHandle.nullDevice
        let status: Int32 = try await withCheckedThrowingContinuation { continuation in
            process.terminationHandler = { continuation.resume(returning: $0.terminationStatus) }
            do {
                try process.run()
            } catch {
                process.terminationHandler = nil
                continuation.resume(throwing: error)
            }
        }
        guard exitStatuses.contains(status) else {
            let message = (try? String(contentsOf: errors, encoding: .utf8)) ?? ""
            throw Failure(description: "\(arguments.first ?? "python3") exited with \(status): \(message)")
        }
        return try String(contentsOf: output, encoding: .utf8)
    }
}
