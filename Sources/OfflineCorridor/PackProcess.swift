import MarkerFiles
import SystemPackage

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A `markerpaint-pack` process: standard error shared with ours, standard output read whole.
enum PackProcess {
    /// Runs `executable` with `arguments`; its exit status and what it wrote to standard output.
    static func run(_ executable: FilePath, _ arguments: [String]) async throws(OfflineError) -> (Int32, [UInt8]) {
        let outcome: Result<(Int32, [UInt8]), OfflineError> = await withCheckedContinuation { continuation in
            // On a thread of its own: reading and waiting block.
            do {
                try DetachedThread.start {
                    continuation.resume(returning: Result { () throws(OfflineError) in try spawn(executable, arguments) })
                }
            } catch {
                continuation.resume(returning: .failure(OfflineError("cannot start markerpaint-pack: \(error)")))
            }
        }
        return try outcome.get()
    }

    private static func spawn(_ executable: FilePath, _ arguments: [String]) throws(OfflineError) -> (Int32, [UInt8]) {
        let (reading, writing): (FileDescriptor, FileDescriptor)
        do { (reading, writing) = try FileDescriptor.pipe() } catch { throw OfflineError("cannot start markerpaint-pack: \(error)") }
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
            throw OfflineError("cannot start \(executable): \(String(cString: strerror(spawned)))")
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
