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
        let url = "file://" + PercentEncoding.encode(absolute.string, keeping: pathBytes)
        return url.hasSuffix("/") ? url : url + "/"
    }

    /// What a path keeps as it is: unreserved characters and the separator.
    private static let pathBytes = PercentEncoding.unreserved.union([UInt8(ascii: "/")])
}
