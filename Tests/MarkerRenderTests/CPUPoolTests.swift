import Foundation
import MarkerRender
import Synchronization
import Testing

@Suite("CPU pool")
struct CPUPoolTests {
    @Test("jobs run on the pool's threads, each with its own context, in arrival order per thread")
    func runsJobs() async throws {
        let pool = try await CPUPool<[Int]>.start(name: "test", threads: 2) { [] }
        defer { pool.shutdown() }
        let results = try await withThrowingTaskGroup(of: Int.self) { group in
            for number in 0..<100 {
                group.addTask {
                    try await pool.run { seen in
                        seen.append(number)
                        return number * 2
                    }
                }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(results.sorted() == (0..<100).map { $0 * 2 })
    }

    @Test("a full queue refuses at once; a stopped pool refuses")
    func refusals() async throws {
        let pool = try await CPUPool<Void>.start(name: "test", threads: 1, capacity: 1) { () }
        let gate = DispatchSemaphore(value: 0)
        let started = Flag()
        async let blocker: Void = pool.run { _ in
            started.set()
            gate.wait()
        }
        // Wait until the one thread holds the blocker (not a fixed time: on a loaded machine the job
        // may not even be queued yet), then fill the queue's one place.
        while !started.isSet { try await Task.sleep(for: .milliseconds(1)) }
        async let queued: Void = pool.run { _ in }
        while pool.waiting < 1 { try await Task.sleep(for: .milliseconds(1)) }
        await #expect(throws: CPUPool<Void>.Refusal.full) { try await pool.run { _ in } }
        gate.signal()
        try await blocker
        try await queued
        pool.shutdown()
        await #expect(throws: CPUPool<Void>.Refusal.stopping) { try await pool.run { _ in } }
    }

    /// A flag a job raises on the pool's thread and the test reads.
    final class Flag: Sendable {
        private let raised = Mutex(false)
        func set() { raised.withLock { $0 = true } }
        var isSet: Bool { raised.withLock { $0 } }
    }

    /// A thread's context that counts its end: a worker drops its context when its thread returns.
    final class Token: Sendable {
        static let ended = Mutex(0)
        let value: Int
        init(_ value: Int) { self.value = value }
        deinit { Self.ended.withLock { $0 += 1 } }
    }

    /// Waiting workers must not hold libdispatch's threads, which Swift concurrency runs on: with
    /// 300 pools alive (more threads than libdispatch gives out), tasks still run and every pool
    /// still answers. Released without a shutdown, the pools' threads end. The limit only catches a
    /// hang: beside every other suite (Chromium, MapLibre, the shapely checks) on two cores, starting
    /// 300 threads took 132 s once.
    @Test("300 live pools leave Swift concurrency running, and released pools end their threads", .timeLimit(.minutes(4)))
    func manyPools() async throws {
        var pools: [CPUPool<Token>] = []
        for number in 0..<300 {
            pools.append(try await CPUPool<Token>.start(name: "test", threads: 1) { Token(number) })
        }
        let sum = await withTaskGroup(of: Int.self) { group in
            for value in 0..<1_000 { group.addTask { value } }
            return await group.reduce(0, +)
        }
        #expect(sum == 499_500)
        var answers = 0
        for pool in pools { answers += try await pool.run { $0.value } }
        #expect(answers == (0..<300).reduce(0, +))
        let endedBefore = Token.ended.withLock { $0 }
        pools.removeAll()
        for _ in 0..<500 where Token.ended.withLock({ $0 }) < endedBefore + 300 {
            try await Task.sleep(for: .milliseconds(10))
        }
        #expect(Token.ended.withLock { $0 } == endedBefore + 300)
    }
}
