import Crypto

/// SHA-256 as lowercase hex, the one hash every content-addressed name uses.
public enum ContentHash {
    private static let hexDigits: [UInt8] = Array("0123456789abcdef".utf8)

    public static func sha256Hex(_ bytes: [UInt8]) -> String {
        var text: [UInt8] = []
        text.reserveCapacity(64)
        for byte in SHA256.hash(data: bytes) {
            text.append(Self.hexDigits[Int(byte >> 4)])
            text.append(Self.hexDigits[Int(byte & 0x0F)])
        }
        return String(decoding: text, as: UTF8.self)
    }
}
