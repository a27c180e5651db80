import ArgumentParser
import MarkerArchive
import MarkerOutput
import MarkerRender
import OfflineCorridor
import SystemPackage

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// `route --tiles-from`: the offline pack's tiles fetched by `markerpaint-pack`, installed beside
/// `markerpaint`, in a process of its own, so that drawing never loads the HTTP stack. Its progress
/// bar and closing line reach the terminal; its result (or its one-line error) comes back as JSON.
enum PackProcess {
    struct Settings: Sendable {
        var source: String
        var format: String
        var maximumBytes: UInt64
        var concurrency: Int
        var tileSize: Int?
    }

    static func job(_ settings: Settings) throws -> OfflineTilesJob {
        let executable = try ServeCommand.siblingExecutable("markerpaint-pack")
        return OfflineTilesJob { tileList, folder in
            var arguments = [
                "--tiles", tileList.string, "--from", settings.source, "--into", folder.string, "--format", settings.format,
                "--max-pack-bytes", String(settings.maximumBytes), "--fetch-concurrency", String(settings.concurrency), "--json",
            ]
            if let tileSize = settings.tileSize { arguments += ["--tile-size", String(tileSize)] }
            let (status, output) = try await run(executable, arguments)
            let line = output.split(separator: UInt8(ascii: "\n")).last.map(Array.init) ?? []
            switch try? JSONDecoder().decode(PackOutcome.self, from: Data(line)) {
            case .failed(let message): throw OutputError(message)
            case .packed(let archive) where status == 0: return archive
            default: throw OutputError("markerpaint-pack stopped (status \(status)) without saying why")
            }
        }
    }

    /// Runs `executable` with `arguments`, standard error shared, standard output read whole.
    private static func run(_ executable: FilePath, _ arguments: [String]) async throws -> (Int32, [UInt8]) {
        try await withCheckedThrowingContinuation { continuation in
            // On a thread of its own: reading and waiting block.
            do {
                try DetachedThread.start {
                    continuation.resume(with: Result { try spawn(executable, arguments) })
                }
            } catch {
                continuation.resume(throwing: OutputError("cannot start markerpaint-pack: \(error)"))
            }
        }
    }

    private static func spawn(_ executable: FilePath, _ arguments: [String]) throws -> (Int32, [UInt8]) {
        let (reading, writing): (FileDescriptor, FileDescriptor)
        do { (reading, writing) = try FileDescriptor.pipe() } catch { throw OutputError("cannot start markerpaint-pack: \(error)") }
        #if canImport(Darwin)
        var actions: posix_spawn_file_actions_t? = nil
        #else
        var actions = posix_spawn_file_actions_t()
        #endif
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, writing.rawValue, 1)
        posix_spawn_file_actions_addclose(&actions, reading.rawValue)
        posix_spawn_file_actions_addclose(&actions, writing.rawValue)
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        let argv = ([executable.string] + arguments).map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, executable.string, &actions, nil, argv, Self.environment)
        try? writing.close()
        guard spawned == 0 else {
            try? reading.close()
            throw OutputError("cannot start \(executable): \(String(cString: strerror(spawned)))")
        }
        var output: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            // read(into:) retries interrupted reads; an error ends the output like its end.
            let count = (try? buffer.withUnsafeMutableBytes { try reading.read(into: $0) }) ?? 0
            if count <= 0 { break }
            // The result is one line; anything past a megabyte is not markerpaint-pack's.
            if output.count < 1 << 20 { output += buffer[0..<count] }
        }
        try? reading.close()
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        let exited = (status & 0x7F) == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
        return (exited, output)
    }

    /// This process's environment, which the pack process inherits.
    private static var environment: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? {
        #if canImport(Darwin)
        _NSGetEnviron().pointee
        #else
        environ
        #endif
    }
}
