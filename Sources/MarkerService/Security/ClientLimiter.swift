import HTTPTypes
import Synchronization

/// How much expensive work each client may ask for: a token bucket of requests (routes, sprite
/// sheets drawn; one marker drawn costs `drawCost` of one) and a cap on those in flight at once.
/// Over either, the request is refused with `429` and `Retry-After` before it queues for anything,
/// so one client's flood never fills the queues every client shares.
final class ClientLimiter: Sendable {
    struct Policy: Sendable, Equatable {
        /// Expensive requests a second a client's bucket refills with; 0 turns the limit off.
        var rate: Double
        /// How many a client may make at once after being quiet.
        var burst: Double
        /// Expensive requests a client may have in flight at once.
        var concurrency: Int

        static let off = Policy(rate: 0, burst: 0, concurrency: 0)

        var isOff: Bool { rate == 0 }
    }

    /// What drawing one marker costs of an expensive request's token: a route's pictures are drawn
    /// by the route, so this is for markers, icons and named images asked for one by one.
    static let drawCost = 1.0 / 50

    /// Clients remembered at most; past it, those with nothing to remember (a full bucket, nothing
    /// in flight) are let go first.
    static let maximumClients = 65_536

    let policy: Policy
    private let clock = ContinuousClock()
    private let start: ContinuousClock.Instant

    private struct Bucket {
        var tokens: Double
        var refilled: Double
        var inFlight = 0
    }

    private let buckets = Mutex<[IPAddress: Bucket]>([:])

    init(policy: Policy) {
        self.policy = policy
        start = clock.now
    }

    /// Seconds since the limiter started, the buckets' clock.
    private var now: Double {
        let elapsed = clock.now - start
        return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
    }

    /// Runs `work` as one expensive request of `client`'s (nil: no address known, not limited),
    /// or throws `429` without running it.
    func expensive<Value>(_ client: IPAddress?, _ work: () async throws -> Value) async throws -> Value {
        guard let client, !policy.isOff else { return try await work() }
        try take(client, cost: 1, holding: true)
        defer { release(client) }
        return try await work()
    }

    /// Charges `client` for drawing `count` markers one by one, or throws `429`.
    func draws(_ client: IPAddress?, count: Int = 1) throws(ServiceError) {
        guard let client, !policy.isOff else { return }
        try take(client, cost: Self.drawCost * Double(count), holding: false)
    }

    private func take(_ client: IPAddress, cost: Double, holding: Bool) throws(ServiceError) {
        let now = now
        let refusal = buckets.withLock { buckets -> Double? in
            if buckets[client] == nil, buckets.count >= Self.maximumClients { forgetIdle(&buckets, now: now) }
            var bucket = buckets[client] ?? Bucket(tokens: policy.burst, refilled: now)
            bucket.tokens = min(policy.burst, bucket.tokens + (now - bucket.refilled) * policy.rate)
            bucket.refilled = now
            defer { buckets[client] = bucket }
            if holding && bucket.inFlight >= policy.concurrency { return 1 }
            guard bucket.tokens >= cost else { return (cost - bucket.tokens) / policy.rate }
            bucket.tokens -= cost
            if holding { bucket.inFlight += 1 }
            return nil
        }
        if let wait = refusal {
            throw ServiceError(
                .tooManyRequests, "too many expensive requests from \(client); retry after the time Retry-After gives",
                retryAfter: max(1, Int(wait.rounded(.up))))
        }
    }

    private func release(_ client: IPAddress) {
        buckets.withLock { buckets in
            guard var bucket = buckets[client] else { return }
            bucket.inFlight = max(0, bucket.inFlight - 1)
            buckets[client] = bucket
        }
    }

    /// Lets go of clients the limiter need not remember: refilled and idle, then any idle.
    private func forgetIdle(_ buckets: inout [IPAddress: Bucket], now: Double) {
        buckets = buckets.filter { _, bucket in
            bucket.inFlight > 0 || bucket.tokens + (now - bucket.refilled) * policy.rate < policy.burst
        }
        if buckets.count >= Self.maximumClients { buckets = buckets.filter { $0.value.inFlight > 0 } }
    }
}
