#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Unbuffered writes to an open file descriptor (standard output, standard error, a log pipe).
public enum DescriptorOutput {
    /// Writes all of `bytes` to `descriptor`, retrying short writes and interrupts; false if a write
    /// failed (a closed stream), which loses the rest.
    @discardableResult
    public static func writeAll(_ bytes: [UInt8], to descriptor: Int32) -> Bool {
        var remaining = bytes[...]
        while !remaining.isEmpty {
            let written = remaining.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
            if written > 0 {
                remaining = remaining.dropFirst(written)
            } else if written < 0 && errno == EINTR {
                continue
            } else {
                return false
            }
        }
        return true
    }
}
