import Foundation

/// A program run to its end, for the tests that check against one (Chromium, a C compiler).
public enum Command {
    /// A program that exited unsuccessfully.
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    /// Runs `executable` with `arguments` and returns its standard output; its standard error is discarded.
    /// - Throws: `Failure` if it exits with another status than 0.
    public static func output(_ executable: String, _ arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw Failure(description: "\(executable) exited \(process.terminationStatus)")
        }
        return String(decoding: data, as: UTF8.self)
    }
}
