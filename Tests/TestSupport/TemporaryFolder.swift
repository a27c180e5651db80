public import Foundation
public import SystemPackage

/// A new empty folder under the system's temporary folder, removed with everything in it when the value goes.
public final class TemporaryFolder: Sendable {
    public let url: URL

    public init(_ prefix: String = "markerpaint-test") throws {
        url = try Self.make(prefix)
    }

    /// The path of `name` inside the folder.
    public func path(_ name: String) -> FilePath { FilePath(url.appendingPathComponent(name).path) }

    deinit { try? FileManager.default.removeItem(at: url) }

    /// A new empty folder named `prefix` and a UUID, which the caller removes.
    public static func make(_ prefix: String = "markerpaint-test") throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("\(prefix)-\(UUID())")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}
