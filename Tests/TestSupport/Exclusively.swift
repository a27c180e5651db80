/// Tests that must not run beside each other: the offline pack's (which start servers, MapLibre and
/// a browser's worth of processes) and the timing-sensitive service tests (idle timeouts, a log no
/// one reads, an idle map). On two cores, with every suite at once, they missed their timings only
/// when both ran together; one at a time, each still runs beside everything else.
public actor Exclusively {
    static let shared = Exclusively()
    private var held = false
    private var waiting: [CheckedContinuation<Void, Never>] = []

    private func acquire() async {
        if held {
            await withCheckedContinuation { waiting.append($0) }
        } else {
            held = true
        }
    }

    private func release() {
        if waiting.isEmpty { held = false } else { waiting.removeFirst().resume() }
    }

    /// Runs `body` when no other such test runs.
    public static func run<Value>(_ body: () async throws -> Value) async rethrows -> Value {
        await shared.acquire()
        do {
            let value = try await body()
            await shared.release()
            return value
        } catch {
            await shared.release()
            throw error
        }
    }
}
