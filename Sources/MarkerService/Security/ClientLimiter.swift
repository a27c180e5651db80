import HTTPTypes
import MarkerQuery
import Synchronization

/// How much work each client may make the service do, counted in images drawn (a route's images,
/// a sprite sheet's pictures at every scale, a marker asked for by query): an allowance refilled
/// at `rate` images a second up to `burst`, and at most `concurrency` expensive requests in flight.
///
/// A client with any allowance left may make a request however large (its first route of a long
/// tour must be drawable), and runs into debt that it then waits out; a client in debt, or with
/// too many in flight, is refused with `429` and `Retry-After` before its request queues for
/// anything. Refusals, and URLs whose signature does not verify, are answered after a short delay
/// and count against the allowance: a client that floods them waits, rather than spending the
/// threads every client shares on being told no.
final class ClientLimiter: Sendable {
    struct Policy: Sendable, Equatable {
        /// Images a second a client's allowance refills with; 0 turns the limits off.
        var rate: Double
        /// The most allowance a quiet client has.
        var burst: Double
        /// Expensive requests (routes, sheets drawn) a client may have in flight at once.
        var concurrency: Int
        /// Requests of any kind a second, and in a burst: a flood of cached images is a flood too.
        var requestRate: Double
        var requestBurst: Double

        init(rate: Double, burst: Double, concurrency: Int, requestRate: Double = 0, requestBurst: Double = 0) {
            self.rate = rate
            self.burst = burst
            self.concurrency = concurrency
            self.requestRate = requestRate
            self.requestBurst = requestBurst
        }

        static let off = Policy(rate: 0, burst: 0, concurrency: 0)

        var isOff: Bool { rate == 0 }
    }

    /// What a refusal costs its client, in images: a flood of refused requests is a flood all the same.
    static let refusalCost = 10.0
    /// How long a refusal waits before it is sent: a client that asks again at once asks slowly.
    static let refusalDelay = Duration.milliseconds(250)

    /// Clients remembered at most; past it, those with nothing to remember (a full allowance,
    /// nothing in flight) are let go first.
    static let maximumClients = 65_536

    let policy: Policy
    private let clock = ContinuousClock()
    private let start: ContinuousClock.Instant

    private struct Account {
        var allowance: Double
        var requests: Double
        var refilled: Double
        var inFlight = 0
    }

    private let accounts = Mutex<[IPAddress: Account]>([:])

    init(policy: Policy) {
        self.policy = policy
        start = clock.now
    }

    /// An expensive request under way: charge it what it turns out to cost.
    struct Permit: Sendable {
        fileprivate let limiter: ClientLimiter?
        fileprivate let client: IPAddress?

        /// Charges `images` more to the client (a route once it knows its images).
        func charge(_ images: Int) {
            guard let limiter, let client else { return }
            limiter.withAccount(client) { account, _ in account.allowance -= Double(images) }
        }
    }

    /// Runs `work` as an expensive request of `client`'s (nil: no address known, not limited),
    /// charging `images` up front and whatever `work` charges as it learns its cost; or refuses
    /// it with `429`, after the refusal delay, without running it.
    func expensive<Value>(_ client: IPAddress?, images: Int = 0, _ work: (Permit) async throws -> Value) async throws -> Value {
        guard let client, !policy.isOff else { return try await work(Permit(limiter: nil, client: nil)) }
        try await admit(client, images: Double(images), holding: true)
        defer { withAccount(client) { account, _ in account.inFlight = max(0, account.inFlight - 1) } }
        return try await work(Permit(limiter: self, client: client))
    }

    /// Counts one request of any kind against `client`'s request rate, or refuses it with `429`
    /// after the refusal delay.
    func request(_ client: IPAddress?) async throws {
        guard let client, !policy.isOff, policy.requestRate > 0 else { return }
        let wait = withAccount(client) { account, _ -> Double? in
            account.requests -= 1
            return account.requests >= 0 ? nil : -account.requests / policy.requestRate
        }
        guard let wait else { return }
        try? await Task.sleep(for: Self.refusalDelay)
        throw ServiceError(
            .tooManyRequests, "this client sends more requests than it may for now; retry after the seconds Retry-After gives",
            retryAfter: max(1, Int(wait.rounded(.up))))
    }

    /// Charges `client` for drawing `images` images asked for one by one, or refuses with `429`.
    func draws(_ client: IPAddress?, images: Int = 1) async throws {
        guard let client, !policy.isOff else { return }
        try await admit(client, images: Double(images), holding: false)
    }

    /// Answers a refusal the client brought on itself (a URL whose signature does not verify):
    /// charged, and sent after the refusal delay.
    func refuse(_ client: IPAddress?, _ error: ServiceError) async throws -> Never {
        if let client, !policy.isOff {
            withAccount(client) { account, _ in account.allowance -= Self.refusalCost }
            try? await Task.sleep(for: Self.refusalDelay)
        }
        throw error
    }

    private func admit(_ client: IPAddress, images: Double, holding: Bool) async throws {
        let wait = withAccount(client) { account, rate -> Double? in
            guard account.allowance > 0, !holding || account.inFlight < policy.concurrency else {
                account.allowance -= Self.refusalCost
                return max(1, -account.allowance / rate)
            }
            account.allowance -= images
            if holding { account.inFlight += 1 }
            return nil
        }
        guard let wait else { return }
        try? await Task.sleep(for: Self.refusalDelay)
        throw ServiceError(
            .tooManyRequests, "this client has asked for more drawing than it may for now; retry after the seconds Retry-After gives",
            retryAfter: max(1, Int(wait.rounded(.up))))
    }

    /// Seconds since the limiter started, the allowances' clock.
    private var now: Double {
        let elapsed = clock.now - start
        return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
    }

    /// Runs `change` on `client`'s account, refilled to now, and keeps it.
    private func withAccount<Result>(_ client: IPAddress, _ change: (inout Account, Double) -> Result) -> Result {
        let now = now
        return accounts.withLock { accounts in
            if accounts[client] == nil, accounts.count >= Self.maximumClients { forgetIdle(&accounts, now: now) }
            var account = accounts[client] ?? Account(allowance: policy.burst, requests: policy.requestBurst, refilled: now)
            let elapsed = now - account.refilled
            account.allowance = min(policy.burst, account.allowance + elapsed * policy.rate)
            account.requests = min(policy.requestBurst, account.requests + elapsed * policy.requestRate)
            account.refilled = now
            let result = change(&account, policy.rate)
            accounts[client] = account
            return result
        }
    }

    /// Lets go of clients the limiter need not remember: refilled and idle, then any idle.
    private func forgetIdle(_ accounts: inout [IPAddress: Account], now: Double) {
        accounts = accounts.filter { _, account in
            let elapsed = now - account.refilled
            return account.inFlight > 0 || account.allowance + elapsed * policy.rate < policy.burst
                || account.requests + elapsed * policy.requestRate < policy.requestBurst
        }
        if accounts.count >= Self.maximumClients { accounts = accounts.filter { $0.value.inFlight > 0 } }
    }
}
