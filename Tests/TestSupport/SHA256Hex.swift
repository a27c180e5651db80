import Crypto
public import Foundation

/// SHA-256 in lowercase hex, as the manifest, the pack and `sha256sum` write it.
public enum SHA256Hex {
    public static func of(_ bytes: some DataProtocol) -> String { SHA256.hash(data: bytes).map { String(format: "%02x", $0) }.joined() }
}
