import Crypto
import Foundation
import SystemPackage

/// A folder under the system's temporary folder, removed when the value goes.
final class TemporaryFolder {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("markerpack-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    func path(_ name: String) -> FilePath { FilePath(url.appendingPathComponent(name).path) }

    deinit { try? FileManager.default.removeItem(at: url) }
}

enum SHA256Hex {
    static func of(_ bytes: [UInt8]) -> String { SHA256.hash(data: bytes).map { String(format: "%02x", $0) }.joined() }
}
