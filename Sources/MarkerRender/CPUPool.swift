import DequeModule
import Dispatch
import Synchronization

/// A few dedicated threads that run CPU-bound jobs in arrival order, away from the event loops and
/// Swift's shared pool, so a long job never delays a health check or a cached image.
///
/// Each thread makes its own `Context` first (a renderer holds a Pango font map and an encoder that
/// must not be shared between threads) and hands it to every job it runs; only jobs and their
/// results cross threads. At most `capacity` jobs wait; beyond that `run` refuses at once.
public final class CPUPool<Context>: Sendable {
    /// Why a job was not run.
    public enum Refusal: Error, Sendable {
        /// `capacity` jobs are already waiting.
        case full
        /// The pool is shutting down.
        case stopping
    }

    private typealias Job = @Sendable (inout Context) -> Void

    private struct Queue {
        var jobs: Deque<Job> = []
        var stopping = false
    }

    public let name: String
    public let threadCount: Int
    public let capacity: Int
    private let queue = Mutex(Queue())
    /// One signal per job, plus one per thread when stopping, so every wake-up has something to take.
    private let wakeUps = DispatchSemaphore(value: 0)

    private init(name: String, threadCount: Int, capacity: Int) {
        self.name = name
        self.threadCount = threadCount
        self.capacity = capacity
    }

    /// Starts `threads` threads, each making its context first; fails (and stops those already
    /// started) if any cannot, e.g. because the Inter font is missing.
    public static func start(
        name: String, threads: Int, capacity: Int = .max, makeContext: @escaping @Sendable () throws -> Context
    ) async throws -> CPUPool {
        let pool = CPUPool(name: name, threadCount: max(1, threads), capacity: max(1, capacity))
        for number in 1...pool.threadCount {
            let started = await withCheckedContinuation { (started: CheckedContinuation<Result<Void, any Error>, Never>) in
                // A serial queue on libdispatch's overcommitting pool: its one long work item keeps a
                // thread of its own for the pool's life, without Foundation's Thread.
                DispatchQueue(label: "markerpaint-\(name)-\(number)", qos: .userInitiated).async {
                    pool.work(makeContext: makeContext, reportingStartTo: started)
                }
            }
            if case .failure(let error) = started {
                pool.stop(startedThreads: number - 1)
                throw error
            }
        }
        return pool
    }

    /// Runs `job` on one of the pool's threads with that thread's context.
    /// - Throws: `Refusal` if the queue is full or the pool is stopping, or what the job throws.
    public func run<Value: Sendable>(_ job: @escaping @Sendable (inout Context) throws -> Value) async throws -> Value {
        try await withCheckedThrowingContinuation { (done: CheckedContinuation<Value, any Error>) in
            let refusal: Refusal? = queue.withLock { queue in
                guard !queue.stopping else { return .stopping }
                guard queue.jobs.count < capacity else { return .full }
                queue.jobs.append { context in done.resume(with: Result { try job(&context) }) }
                return nil
            }
            if let refusal {
                done.resume(throwing: refusal)
            } else {
                wakeUps.signal()
            }
        }
    }

    /// Jobs waiting for a thread.
    public var waiting: Int { queue.withLock { $0.jobs.count } }

    /// Refuses new jobs; the threads finish those queued and exit.
    public func shutdown() {
        stop(startedThreads: threadCount)
    }

    private func stop(startedThreads: Int) {
        queue.withLock { $0.stopping = true }
        for _ in 0..<startedThreads { wakeUps.signal() }
    }

    /// A thread's life: make its context, then take jobs until the pool stops and the queue is empty.
    private func work(
        makeContext: @Sendable () throws -> Context,
        reportingStartTo started: CheckedContinuation<Result<Void, any Error>, Never>
    ) {
        var context: Context
        do {
            context = try makeContext()
        } catch {
            started.resume(returning: .failure(error))
            return
        }
        started.resume(returning: .success(()))
        while true {
            wakeUps.wait()
            guard let job = queue.withLock({ $0.jobs.popFirst() }) else { return }
            job(&context)
        }
    }
}

extension CPUPool where Context == MarkerRenderer {
    /// A pool of `threads` threads, each with its own renderer (Pango font maps, Cairo contexts and
    /// encoders are not shared across threads).
    public static func renderers(
        threads: Int, capacity: Int = .max,
        pngLevel: Int = PNGEncoder.defaultLevel, pngFilter: PNGEncoder.Filter = PNGEncoder.defaultFilter
    ) async throws -> CPUPool {
        try await start(name: "render", threads: threads, capacity: capacity) {
            try MarkerRenderer(pngLevel: pngLevel, pngFilter: pngFilter)
        }
    }
}
