#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The system's words for the last failed call, e.g. "No space left on device".
func lastErrorText() -> String {
    String(cString: strerror(errno))
}

/// Runs a system call again while a signal interrupts it.
func retryingInterrupts(_ call: () -> Int32) -> Int32 {
    while true {
        let result = call()
        if result >= 0 || errno != EINTR { return result }
    }
}
