#if canImport(Glibc)
import Glibc
#endif

extension Array where Element == UInt8 {
    /// `count` zero bytes. A buffer of 8 MiB or more (a sprite sheet, its scanlines) is first
    /// offered to the kernel for huge pages: filling a 60 MB sheet took some 15,000 page faults,
    /// a sixth of a route's run with waypoints, where 2 MiB pages take thirty.
    package static func zeroed(count: Int) -> [UInt8] {
        [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            #if os(Linux)
            if count >= 8 << 20, let base = buffer.baseAddress {
                let page = 2 << 20
                let start = (Int(bitPattern: base) + page - 1) & ~(page - 1)
                let end = (Int(bitPattern: base) + count) & ~(page - 1)
                // Advice only: where the kernel has no huge pages to give, pages are as before.
                if end > start, let aligned = UnsafeMutableRawPointer(bitPattern: start) { _ = madvise(aligned, end - start, MADV_HUGEPAGE) }
            }
            #endif
            buffer.initialize(repeating: 0)
            initialized = count
        }
    }
}
