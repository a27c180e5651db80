public import SystemPackage

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `file://` URLs of local folders, which map SDKs load as they are (they do not resolve a style's
/// URLs relative to the style's own).
public enum FileURL {
    /// The URL of the folder at `path`, ending in `/`: absolute (a relative path is taken from the
    /// working directory), lexically normalised, every byte but unreserved ones and `/` percent-encoded.
    public static func folder(_ path: FilePath) -> String {
        var absolute = path
        if !absolute.isAbsolute {
            var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
            let cwd = buffer.withUnsafeMutableBufferPointer { getcwd($0.baseAddress, $0.count) }.map { _ in
                FilePath(platformString: buffer)
            }
            absolute = (cwd ?? FilePath("/")).pushing(path)
        }
        absolute.lexicallyNormalize()
        var url = "file://"
        for byte in absolute.string.utf8 {
            if isUnreserved(byte) || byte == UInt8(ascii: "/") {
                url.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                let hex = Array("0123456789ABCDEF".unicodeScalars)
                url.unicodeScalars.append("%")
                url.unicodeScalars.append(hex[Int(byte >> 4)])
                url.unicodeScalars.append(hex[Int(byte & 0x0F)])
            }
        }
        return url.hasSuffix("/") ? url : url + "/"
    }

    /// RFC 3986's unreserved characters: letters, digits, `-`, `.`, `_`, `~`.
    static func isUnreserved(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"): true
        case UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"): true
        default: false
        }
    }
}
