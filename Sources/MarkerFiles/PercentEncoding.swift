/// Percent-encoding (RFC 3986 §2.1) of the bytes of a path, for the URLs markerpaint writes.
public enum PercentEncoding {
    /// RFC 3986's unreserved characters: letters, digits, `-`, `.`, `_`, `~`.
    public static let unreserved = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~".utf8)

    /// `text` with every UTF-8 byte outside `kept` written as `%XX` (upper-case hex).
    public static func encode(_ text: String, keeping kept: Set<UInt8>) -> String {
        let hex = Array("0123456789ABCDEF".utf8)
        var encoded: [UInt8] = []
        encoded.reserveCapacity(text.utf8.count)
        for byte in text.utf8 {
            if kept.contains(byte) {
                encoded.append(byte)
            } else {
                encoded += [UInt8(ascii: "%"), hex[Int(byte >> 4)], hex[Int(byte & 0x0F)]]
            }
        }
        return String(decoding: encoded, as: UTF8.self)
    }
}
