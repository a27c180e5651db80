import Dispatch
import Foundation
import MarkerRender
import ServiceLifecycle
import Synchronization

/// A few dedicated threads, each owning one `MarkerRenderer`, that draw markers away from the event
/// loops and the cooperative pool (a render takes milliseconds of CPU and blocks its thread).
///
/// A renderer holds a Pango font map and a PNG encoder that must not be shared between threads, so
/// each stays on the thread that made it; only requests and finished images cross threads.
final class RenderPool: Service, Sendable {
    private struct Job: Sendable {
        let request: MarkerRequest
        let done: CheckedContinuation<Result<RenderedMarker, RenderError>, Never>
    }

    /// A FIFO of jobs; `head` advances instead of shifting the array on every take.
    private struct Queue {
        var jobs: [Job?] = []
        var head = 0
        var stopping = false

        mutating func take() -> Job? {
            guard head < jobs.count else { return nil }
            let job = jobs[head]
            jobs[head] = nil
            head += 1
            if head > 64, head * 2 > jobs.count {
                jobs.removeFirst(head)
                head = 0
            }
            return job
        }
    }

    let threadCount: Int
    private let queue = Mutex(Queue())
    /// One signal per job, plus one per thread when stopping, so every wake-up has something to take.
    private let wakeUps = DispatchSemaphore(value: 0)
    private let metrics: ServiceMetrics

    private init(threadCount: Int, metrics: ServiceMetrics) {
        self.threadCount = threadCount
        self.metrics = metrics
    }

    /// Starts `threads` render threads, each making its renderer first; fails (and stops those
    /// already started) if any cannot, e.g. because the Inter font is missing.
    static func start(threads: Int, metrics: ServiceMetrics) async throws(RenderError) -> RenderPool {
        let pool = RenderPool(threadCount: max(1, threads), metrics: metrics)
        for number in 1...pool.threadCount {
            let started = await withCheckedContinuation { (started: CheckedContinuation<Result<Void, RenderError>, Never>) in
                let thread = Thread { pool.work(reportingStartTo: started) }
                thread.name = "markerpaint-render-\(number)"
                thread.start()
            }
            if case .failure(let error) = started {
                pool.stop(startedThreads: number - 1)
                throw error
            }
        }
        return pool
    }

    /// Draws `request` on one of the render threads.
    func render(_ request: MarkerRequest) async throws(RenderError) -> RenderedMarker {
        let result = await withCheckedContinuation { (done: CheckedContinuation<Result<RenderedMarker, RenderError>, Never>) in
            let accepted = queue.withLock { queue in
                guard !queue.stopping else { return false }
                queue.jobs.append(Job(request: request, done: done))
                return true
            }
            if accepted {
                wakeUps.signal()
            } else {
                done.resume(returning: .failure(RenderError("the service is shutting down")))
            }
        }
        return try result.get()
    }

    /// Runs until the application shuts down, then lets the threads finish the queued jobs and exit.
    ///
    /// The server is later in the service group, so it has stopped and drained its requests by now.
    func run() async throws {
        try? await gracefulShutdown()
        shutdown()
    }

    /// Refuses new jobs; the threads finish those queued and exit.
    func shutdown() {
        stop(startedThreads: threadCount)
    }

    private func stop(startedThreads: Int) {
        queue.withLock { $0.stopping = true }
        for _ in 0..<startedThreads { wakeUps.signal() }
    }

    /// A render thread's life: make a renderer, then take jobs until the pool stops and the queue is empty.
    private func work(reportingStartTo started: CheckedContinuation<Result<Void, RenderError>, Never>) {
        let renderer: MarkerRenderer
        do throws(RenderError) {
            renderer = try MarkerRenderer()
        } catch {
            started.resume(returning: .failure(error))
            return
        }
        started.resume(returning: .success(()))
        while true {
            wakeUps.wait()
            guard let job = queue.withLock({ $0.take() }) else { return }
            let result = metrics.renderDuration.measure { () -> Result<RenderedMarker, RenderError> in
                do throws(RenderError) {
                    return .success(try renderer.render(job.request))
                } catch {
                    return .failure(error)
                }
            }
            job.done.resume(returning: result)
        }
    }
}
