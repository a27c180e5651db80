import MarkerSpec
import Testing

@testable import MarkerService

@Suite("Admitting route requests")
struct ConcurrencyLimitTests {
    @Test("holders up to the maximum, waiters in order up to their maximum, then refusal")
    func admitsWaitsAndRefuses() async throws {
        let limit = ConcurrencyLimit(maximum: 2, maximumWaiting: 1)
        #expect(await limit.enter())
        #expect(await limit.enter())
        let waiter = Task { await limit.enter() }
        // Let the waiter reach the queue; a fourth caller finds it full.
        try await Task.sleep(for: .milliseconds(100))
        #expect(await limit.enter() == false)
        limit.leave()
        #expect(await waiter.value == true)
        limit.leave()
        limit.leave()
        // All places free again: two enter at once.
        #expect(await limit.enter())
        #expect(await limit.enter())
    }

    @Test("a waiter whose request is cancelled leaves the queue without a place")
    func cancelledWaiter() async throws {
        let limit = ConcurrencyLimit(maximum: 1, maximumWaiting: 4)
        #expect(await limit.enter())
        let waiter = Task { await limit.enter() }
        try await Task.sleep(for: .milliseconds(100))
        waiter.cancel()
        #expect(await waiter.value == false)
        limit.leave()
        // The cancelled waiter took nothing: the one place is free.
        #expect(await limit.enter())
    }
}
