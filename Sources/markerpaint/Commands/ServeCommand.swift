import ArgumentParser
import SystemPackage

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// `markerpaint serve`: runs `markerpaint-serve`, installed beside `markerpaint`, in this process's place.
///
/// The service is an executable of its own so that drawing a marker never loads SwiftNIO and
/// Hummingbird: with them linked in, every `markerpaint` start searched their type records too.
struct ServeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve markers over HTTP: by query, by content-hashed name, and for whole routes.",
        discussion: """
            Runs markerpaint-serve, which is built and installed beside markerpaint, with these options.
            `markerpaint serve --help` lists them.
            """
    )

    @Argument(parsing: .captureForPassthrough, help: "The service's options: see `markerpaint serve --help`.")
    var options: [String] = []

    func run() throws {
        let service = try Self.serviceExecutable()
        let arguments = [service.string] + options
        // The C strings live until execv replaces the process or fails.
        let pointers = arguments.map { strdup($0) } + [nil]
        defer { for pointer in pointers { free(pointer) } }
        execv(service.string, pointers)
        throw ValidationError("cannot start \(service): \(String(cString: strerror(errno)))")
    }

    /// `markerpaint-serve` in this executable's own folder.
    static func serviceExecutable() throws -> FilePath {
        try siblingExecutable("markerpaint-serve")
    }

    /// The executable `name` in this executable's own folder.
    static func siblingExecutable(_ name: String) throws -> FilePath {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let length = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard length > 0 else {
            throw ValidationError("cannot find markerpaint's own path to start \(name): \(String(cString: strerror(errno)))")
        }
        let own = FilePath(String(decoding: buffer[..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self))
        let sibling = own.removingLastComponent().appending(name)
        guard access(sibling.string, X_OK) == 0 else {
            throw ValidationError(
                "\(name) is not installed beside markerpaint (\(sibling)); build it with swift build -c release --static-swift-stdlib --product \(name)"
            )
        }
        return sibling
    }
}
