import Hummingbird
import Logging
import ServiceLifecycle
import UnixSignals

/// Runs the marker service until SIGTERM or SIGINT, then drains: the listener closes, requests in
/// flight get `drainTimeout` to finish, and connections still open after it are cancelled, so a
/// slow client can never hold the process up.
///
/// `onServerRunning` hears the port once the server listens (the one picked, for port 0).
public func runService(
    _ configuration: ServiceConfiguration, onServerRunning: @escaping @Sendable (_ port: Int) async -> Void = { _ in }
) async throws {
    let application = try await buildApplication(configuration, onServerRunning: onServerRunning)
    var groupConfiguration = ServiceGroupConfiguration(
        services: [.init(service: application)],
        gracefulShutdownSignals: [.sigterm, .sigint],
        logger: application.logger)
    groupConfiguration.maximumGracefulShutdownDuration = configuration.drainTimeout
    groupConfiguration.maximumCancellationDuration = .seconds(5)
    try await ServiceGroup(configuration: groupConfiguration).run()
}
