#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// `unlink(2)`, under a name that does not clash with the methods called `unlink`.
package func systemUnlink(_ path: UnsafePointer<CChar>) -> Int32 { unlink(path) }
