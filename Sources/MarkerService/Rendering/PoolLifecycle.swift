import MarkerRender
import ServiceLifecycle

/// Shuts a CPU pool down when the application does: the threads finish the queued jobs and exit.
///
/// The server is later in the service group, so it has stopped and drained its requests by then.
struct PoolLifecycle: Service {
    let shutdown: @Sendable () -> Void

    init<Context>(_ pool: CPUPool<Context>) {
        shutdown = { pool.shutdown() }
    }

    func run() async throws {
        try? await gracefulShutdown()
        shutdown()
    }
}
