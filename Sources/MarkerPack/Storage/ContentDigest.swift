import Crypto

/// The SHA-256 of bytes, as lowercase hex: how packs are named and tiles told apart.
public enum ContentDigest {
    public static func hex(_ bytes: [UInt8]) -> String {
        let digits: [UInt8] = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        text.reserveCapacity(64)
        for byte in SHA256.hash(data: bytes) {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: text, as: UTF8.self)
    }
}
