import Synchronization

/// At most `maximum` holders at once; one more is turned away at once rather than queued, so a
/// burst of expensive requests costs a `503`, not memory.
final class ConcurrencyLimit: Sendable {
    let maximum: Int
    private let holders = Mutex(0)

    init(maximum: Int) {
        self.maximum = maximum
    }

    /// Takes a place if one is free.
    func enter() -> Bool {
        holders.withLock { count in
            guard count < maximum else { return false }
            count += 1
            return true
        }
    }

    /// Gives back a place `enter` took.
    func leave() {
        holders.withLock { $0 = max(0, $0 - 1) }
    }
}
