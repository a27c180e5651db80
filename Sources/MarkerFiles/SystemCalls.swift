#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The C library's calls under names that clash neither with the methods called `open`, `read`
/// and `write` nor, for `stat`, with the function of that name: one place for what differs by platform.
typealias FileStatus = stat

/// `open(2)` of a path with `flags`.
func systemOpen(_ path: UnsafePointer<CChar>, _ flags: Int32) -> Int32 { open(path, flags) }

/// `read(2)` into a buffer.
func systemRead(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int { read(descriptor, buffer, count) }

/// `write(2)` from a buffer.
func systemWrite(_ descriptor: Int32, _ buffer: UnsafeRawPointer?, _ count: Int) -> Int { write(descriptor, buffer, count) }
