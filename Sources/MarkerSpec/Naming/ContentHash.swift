import Crypto
public import MarkerFiles

/// SHA-256 as lowercase hex, the one hash every content-addressed name uses.
public enum ContentHash {
    private static let hexDigits: [UInt8] = Array("0123456789abcdef".utf8)

    public static func sha256Hex(_ bytes: [UInt8]) -> String {
        hex(SHA256.hash(data: bytes))
    }

    /// The SHA-256 of the file `name` in `folder`, read a megabyte at a time; nil if it is gone.
    public static func sha256Hex(ofFile name: String, in folder: Folder) throws(FileError) -> String? {
        var hasher = SHA256()
        guard try folder.readChunks(of: name, { hasher.update(data: $0) }) else { return nil }
        return hex(hasher.finalize())
    }

    private static func hex(_ digest: SHA256.Digest) -> String {
        var text: [UInt8] = []
        text.reserveCapacity(64)
        for byte in digest {
            text.append(Self.hexDigits[Int(byte >> 4)])
            text.append(Self.hexDigits[Int(byte & 0x0F)])
        }
        return String(decoding: text, as: UTF8.self)
    }
}
