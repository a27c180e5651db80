public import MarkerPNG
import DequeModule
import MarkerFiles
import Dispatch
import Synchronization

/// A few dedicated threads that run CPU-bound jobs in arrival order, away from the event loops and
/// Swift's shared pool, so a long job never delays a health check or a cached image.
///
/// Each thread makes its own `Context` first (a renderer holds a Pango font map and an encoder that
/// must not be shared between threads) and hands it to every job it runs; only jobs and their
/// results cross threads. At most `capacity` jobs wait; beyond that `run` refuses at once.
///
/// The threads are the pool's own (pthreads), not libdispatch's: a worker that waits for jobs for
/// the pool's whole life would hold one of the threads Swift concurrency itself runs on. They end
/// when the pool is shut down or released.
public final class CPUPool<Context>: Sendable {
    /// Why a job was not run.
    public enum Refusal: Error, Sendable {
        /// `capacity` jobs are already waiting.
        case full
        /// The pool is shutting down.
        case stopping
    }

    public let name: String
    public let threadCount: Int
    public let capacity: Int
    /// What the threads share with the pool; they hold this, not the pool, so releasing the pool stops them.
    private let jobs: JobQueue<Context>

    private init(name: String, threadCount: Int, capacity: Int) {
        self.name = name
        self.threadCount = threadCount
        self.capacity = capacity
        jobs = JobQueue(capacity: capacity)
    }

    deinit { jobs.stop(threads: threadCount) }

    /// Starts `threads` threads, each making its context first; fails (and stops those already
    /// started) if any cannot, e.g. because the Inter font is missing.
    public static func start(
        name: String, threads: Int, capacity: Int = .max, makeContext: @escaping @Sendable () throws -> Context
    ) async throws -> CPUPool {
        let pool = CPUPool(name: name, threadCount: max(1, threads), capacity: max(1, capacity))
        let jobs = pool.jobs
        // All threads make their contexts at once: a renderer's fonts take milliseconds to load.
        let starts = await withTaskGroup(of: Result<Void, any Error>.self) { group in
            for _ in 1...pool.threadCount {
                group.addTask {
                    await withCheckedContinuation { (started: CheckedContinuation<Result<Void, any Error>, Never>) in
                        do {
                            try DetachedThread.start {
                                jobs.work(makeContext: makeContext, reportingStartTo: started)
                            }
                        } catch {
                            started.resume(returning: .failure(error))
                        }
                    }
                }
            }
            return await group.reduce(into: []) { $0.append($1) }
        }
        var failure: (any Error)?
        var running = 0
        for started in starts {
            switch started {
            case .success: running += 1
            case .failure(let error): failure = failure ?? error
            }
        }
        if let failure {
            jobs.stop(threads: running)
            throw failure
        }
        return pool
    }

    /// Runs `job` on one of the pool's threads with that thread's context.
    /// - Throws: `Refusal` if the queue is full or the pool is stopping, or what the job throws.
    public func run<Value: Sendable>(_ job: @escaping @Sendable (inout Context) throws -> Value) async throws -> Value {
        try await withCheckedThrowingContinuation { (done: CheckedContinuation<Value, any Error>) in
            if let refusal = jobs.add({ context in done.resume(with: Result { try job(&context) }) }) {
                done.resume(throwing: refusal)
            }
        }
    }

    /// `job` on each of `items` on the pool's threads, `chunk` items a pool job, the results in
    /// `items`' order; `progress` hears how many are done after each job.
    ///
    /// Jobs of several items, since a hop to a pool thread and back costs about as much as a small
    /// image; two jobs a thread queued at a time, which keeps every thread busy without queueing
    /// the whole batch (a pool of bounded capacity would refuse the rest).
    public func map<Item: Sendable, Value: Sendable>(
        _ items: [Item], chunk: Int, progress: (Int) -> Void = { _ in }, _ job: @escaping @Sendable (inout Context, Item) throws -> Value
    ) async throws -> [Value] {
        let size = max(1, chunk)
        let chunks = stride(from: 0, to: items.count, by: size).map { $0..<min($0 + size, items.count) }
        var results: [Value?] = Array(repeating: nil, count: items.count)
        try await withThrowingTaskGroup(of: (Range<Int>, [Value]).self) { group in
            var next = 0
            func addNext() {
                let range = chunks[next]
                let slice = Array(items[range])
                group.addTask { (range, try await self.run { context in try slice.map { try job(&context, $0) } }) }
                next += 1
            }
            while next < min(2 * threadCount, chunks.count) { addNext() }
            var done = 0
            while let (range, values) = try await group.next() {
                for (index, value) in zip(range, values) { results[index] = value }
                done += values.count
                progress(done)
                if next < chunks.count { addNext() }
            }
        }
        return results.compactMap { $0 }
    }

    /// Jobs waiting for a thread.
    public var waiting: Int { jobs.waiting }

    /// Refuses new jobs; the threads finish those queued and exit.
    public func shutdown() {
        jobs.stop(threads: threadCount)
    }
}

/// The jobs of one pool, in arrival order, and the signal its threads wait on.
private final class JobQueue<Context>: Sendable {
    typealias Job = @Sendable (inout Context) -> Void

    private struct State {
        var jobs: Deque<Job> = []
        var stopping = false
    }

    private let capacity: Int
    private let state = Mutex(State())
    /// One signal per job, plus one per thread when stopping, so every wake-up has something to take.
    private let wakeUps = DispatchSemaphore(value: 0)

    init(capacity: Int) {
        self.capacity = capacity
    }

    /// Queues `job`, or says why not.
    func add(_ job: @escaping Job) -> CPUPool<Context>.Refusal? {
        let refusal: CPUPool<Context>.Refusal? = state.withLock { state in
            guard !state.stopping else { return .stopping }
            guard state.jobs.count < capacity else { return .full }
            state.jobs.append(job)
            return nil
        }
        if refusal == nil { wakeUps.signal() }
        return refusal
    }

    var waiting: Int { state.withLock { $0.jobs.count } }

    /// Refuses new jobs and wakes `threads` threads to finish what is queued and exit; only the first call counts.
    func stop(threads: Int) {
        let first = state.withLock { state in
            defer { state.stopping = true }
            return !state.stopping
        }
        guard first else { return }
        for _ in 0..<threads { wakeUps.signal() }
    }

    /// A thread's life: make its context, then take jobs until the pool stops and the queue is empty.
    func work(
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
            guard let job = state.withLock({ $0.jobs.popFirst() }) else { return }
            job(&context)
        }
    }
}

extension CPUPool where Context == MarkerRenderer {
    /// A pool of `threads` threads, each with its own renderer (Pango font maps, Cairo contexts and
    /// encoders are not shared across threads); backgrounds and shadow masks, as bytes, are.
    /// `warm`: each renderer does its first-use work (`MarkerRenderer.warmUp`) before the pool starts.
    public static func renderers(
        name: String = "render", threads: Int, capacity: Int = .max,
        compression: PNGEncoder.Compression = PNGEncoder.defaultCompression, pngFilter: PNGEncoder.Filter = PNGEncoder.defaultFilter,
        warm: Bool = false
    ) async throws -> CPUPool {
        let drawing = SharedDrawing()
        return try await start(name: name, threads: threads, capacity: capacity) {
            let renderer = try MarkerRenderer(compression: compression, pngFilter: pngFilter, sharing: drawing)
            if warm { try renderer.warmUp() }
            return renderer
        }
    }
}
