import ArgumentParser
import MarkerOutput
import MarkerRender
import SystemPackage

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

#if canImport(Glibc)
import Glibc
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
            let record = try? JSONDecoder().decode(Record.self, from: Data(line))
            if let error = record?.error { throw OutputError(error) }
            guard status == 0, let record, let name = record.name, let sha256 = record.sha256 else {
                throw OutputError("markerpaint-pack stopped (status \(status)) without saying why")
            }
            return OfflineTilesJob.Written(
                name: name, bytes: record.bytes ?? 0, sha256: sha256, format: record.format ?? settings.format, tileType: record.tileType ?? "png",
                tileSize: record.tileSize ?? 256, tiles: record.tiles ?? 0, absent: record.absent ?? 0, attribution: record.attribution,
                minimumZoom: record.minzoom ?? 0, maximumZoom: record.maxzoom ?? 22)
        }
    }

    private struct Record: Decodable {
        var error: String?
        var name: String?
        var bytes: Int?
        var sha256: String?
        var format: String?
        var tileType: String?
        var tileSize: Int?
        var tiles: Int?
        var absent: Int?
        var attribution: String?
        var minzoom: Int?
        var maxzoom: Int?
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
        var pipe: [Int32] = [0, 0]
        guard Glibc.pipe(&pipe) == 0 else { throw OutputError("cannot start markerpaint-pack: \(String(cString: strerror(errno)))") }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, pipe[1], 1)
        posix_spawn_file_actions_addclose(&actions, pipe[0])
        posix_spawn_file_actions_addclose(&actions, pipe[1])
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        let argv = ([executable.string] + arguments).map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, executable.string, &actions, nil, argv, environ)
        close(pipe[1])
        guard spawned == 0 else {
            close(pipe[0])
            throw OutputError("cannot start \(executable): \(String(cString: strerror(spawned)))")
        }
        var output: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let read = buffer.withUnsafeMutableBytes { Glibc.read(pipe[0], $0.baseAddress, $0.count) }
            if read < 0 && errno == EINTR { continue }
            if read <= 0 { break }
            // The result is one line; anything past a megabyte is not markerpaint-pack's.
            if output.count < 1 << 20 { output += buffer[0..<read] }
        }
        close(pipe[0])
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        let exited = (status & 0x7F) == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
        return (exited, output)
    }
}
