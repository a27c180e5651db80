import Foundation

/// Processor time, which counts the work done however busy the machine is, unlike wall-clock time.
public enum ProcessorTime {
    /// Seconds of processor time the calling thread has used: a synchronous piece of work's cost is
    /// the difference across it.
    public static func ofThisThread() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) * 1e-9
    }
}
