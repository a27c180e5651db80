import Dispatch
import MarkerFiles
import Synchronization

/// Log lines written to a file descriptor (standard error) by a thread of their own, so a slow or
/// stopped reader of stderr never holds up a request: lines queue up to `capacityBytes`; past
/// that they are dropped and counted, and the count is written as soon as the reader takes lines again.
final class LogWriter: Sendable {
    private struct State {
        var lines: [[UInt8]] = []
        var queuedBytes = 0
        var dropped = 0
    }

    /// The process's standard error, written by one thread for every logger of the process; nil
    /// if that thread could not be started.
    static let standardError: LogWriter? = try? LogWriter(descriptor: 2)

    let capacityBytes: Int
    private let descriptor: Int32
    private let state = Mutex(State())
    private let wakeUp = DispatchSemaphore(value: 0)

    init(descriptor: Int32, capacityBytes: Int = 1 << 20) throws(DetachedThread.StartFailure) {
        self.descriptor = descriptor
        self.capacityBytes = capacityBytes
        // The thread holds the writer for as long as the process lives: one per descriptor, made once.
        try DetachedThread.start { [self] in self.writeForever() }
    }

    /// Queues `line`, or drops it if the queue is full; never waits for the descriptor.
    func write(_ line: [UInt8]) {
        let queued = state.withLock { state -> Bool in
            guard state.queuedBytes + line.count <= capacityBytes else {
                state.dropped += 1
                return false
            }
            state.lines.append(line)
            state.queuedBytes += line.count
            return true
        }
        if queued { wakeUp.signal() }
    }

    /// How many lines have been dropped and not yet reported.
    var droppedUnreported: Int { state.withLock { $0.dropped } }

    private func writeForever() {
        while true {
            wakeUp.wait()
            let (lines, dropped) = state.withLock { state -> ([[UInt8]], Int) in
                defer {
                    state.lines = []
                    state.queuedBytes = 0
                    state.dropped = 0
                }
                return (state.lines, state.dropped)
            }
            // A line that cannot be written (the stream closed) is lost, like the rest after it.
            for line in lines { DescriptorOutput.writeAll(line, to: descriptor) }
            if dropped > 0 {
                let notice = "markerpaint serve: \(dropped) log lines dropped: standard error was not being read fast enough\n"
                DescriptorOutput.writeAll(Array(notice.utf8), to: descriptor)
            }
        }
    }
}
