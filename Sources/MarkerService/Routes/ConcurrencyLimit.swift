import DequeModule
import Synchronization

/// At most `maximum` holders at once; up to `maximumWaiting` more wait their turn in arrival order,
/// and one beyond that is turned away at once, so a burst of expensive requests is queued within
/// bounds and an overload costs a `503`, not memory.
final class ConcurrencyLimit: Sendable {
    let maximum: Int
    let maximumWaiting: Int

    private struct Waiter {
        let id: UInt64
        let continuation: CheckedContinuation<Bool, Never>
    }

    private struct State {
        var holders = 0
        var waiting: Deque<Waiter> = []
        var nextID: UInt64 = 0
    }

    private let state = Mutex(State())

    init(maximum: Int, maximumWaiting: Int) {
        self.maximum = maximum
        self.maximumWaiting = maximumWaiting
    }

    /// Takes a place, waiting for one if needed; false if too many are waiting already or the task
    /// was cancelled (its client went away) while it waited.
    func enter() async -> Bool {
        let id = state.withLock { state -> UInt64 in
            state.nextID += 1
            return state.nextID
        }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let answer: Bool? = state.withLock { state in
                    if state.holders < maximum {
                        state.holders += 1
                        return true
                    }
                    guard state.waiting.count < maximumWaiting, !Task.isCancelled else { return false }
                    state.waiting.append(Waiter(id: id, continuation: continuation))
                    return nil
                }
                if let answer { continuation.resume(returning: answer) }
            }
        } onCancel: {
            let waiter = state.withLock { state -> Waiter? in
                guard let index = state.waiting.firstIndex(where: { $0.id == id }) else { return nil }
                return state.waiting.remove(at: index)
            }
            waiter?.continuation.resume(returning: false)
        }
    }

    /// Gives back a place `enter` took: to the longest waiter, if any.
    func leave() {
        let next = state.withLock { state -> Waiter? in
            if let first = state.waiting.popFirst() { return first }
            state.holders = max(0, state.holders - 1)
            return nil
        }
        next?.continuation.resume(returning: true)
    }
}
