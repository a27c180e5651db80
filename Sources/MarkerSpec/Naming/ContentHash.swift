import Crypto

/// SHA-256 as lowercase hex, the one hash every content-addressed name uses.
public enum ContentHash {
    public static func sha256Hex(_ bytes: [UInt8]) -> String {
        let hex: [UInt8] = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        text.reserveCapacity(64)
        for byte in SHA256.hash(data: bytes) {
            text.append(hex[Int(byte >> 4)])
            text.append(hex[Int(byte & 0x0F)])
        }
        return String(decoding: text, as: UTF8.self)
    }
}
