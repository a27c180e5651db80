import Crypto

/// The SHA-256 of bytes, as lowercase hex: how packs are named and tiles told apart.
public enum ContentDigest {
    public static func hex(_ bytes: [UInt8]) -> String {
        hex(SHA256.hash(data: bytes))
    }

    /// A digest already worked out (a file hashed as it was read), as hex.
    static func hex(_ digest: SHA256.Digest) -> String {
        let digits: [UInt8] = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        text.reserveCapacity(64)
        for byte in digest {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: text, as: UTF8.self)
    }
}
