import Foundation
import Hummingbird
import HummingbirdTesting
import Logging
import MarkerRender
import MarkerService
import MarkerSpec
import NIOCore
import ServiceLifecycle
import TestSupport

/// The service started on a free port, answering real HTTP requests over loopback.
enum LiveService {
    /// Quiet by default: one log line per request would drown the test output. Idle connections are
    /// kept for 2 minutes, not 15 s: on a 2-core machine also running browsers and MapLibre for other
    /// suites, a test can stall that long between two requests; tests of the timeouts set their own.
    static let configuration: ServiceConfiguration = {
        var configuration = ServiceConfiguration(port: 0, cacheBytes: 8 << 20, renderThreads: 2, logLevel: "warning")
        configuration.idleTimeout = .seconds(120)
        return configuration
    }()

    /// Builds the application with `configuration`, starts it on a free port, and runs `body` with a
    /// client connected to it; the service shuts down gracefully afterwards, whatever `body` did.
    static func run<Value: Sendable>(
        _ configuration: ServiceConfiguration = LiveService.configuration,
        logger: Logger? = nil,
        _ body: @Sendable (LiveClient) async throws -> Value
    ) async throws -> Value {
        let (ports, portContinuation) = AsyncStream.makeStream(of: Int.self)
        let app = try await buildApplication(configuration, logger: logger) { port in
            portContinuation.yield(port)
            portContinuation.finish()
        }
        let services = ServiceGroup(
            configuration: .init(services: [app], gracefulShutdownSignals: [], logger: app.logger))
        return try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                // A service that ends before it listens (a port it cannot bind) ends the wait for one.
                defer { portContinuation.finish() }
                try await services.run()
            }
            guard let port = await ports.first(where: { _ in true }) else {
                try await group.next()
                throw LiveServiceError.neverListened
            }
            let client = TestClient(host: "localhost", port: port, configuration: .init(timeout: LiveClient.patience))
            client.connect()
            do {
                let value = try await body(LiveClient(client: client, port: port))
                try await client.shutdown()
                await services.triggerGracefulShutdown()
                try await group.waitForAll()
                return value
            } catch {
                try? await client.shutdown()
                await services.triggerGracefulShutdown()
                try? await group.waitForAll()
                throw error
            }
        }
    }

    /// What the CLI draws for the same request: the bytes the service must send.
    static func reference(
        _ kind: Marker.Kind, _ distance: Double, theme: Theme = .day, scale: MarkerScale = 2,
        unit: Marker.Unit = .km, mark: Label.DecimalMark = .point, precision: Label.Precision = .standard
    ) throws -> RenderedMarker {
        let request = try MarkerRequest(
            marker: Marker(kind: kind, distance: distance, unit: unit, mark: mark, precision: precision), theme: theme, scale: scale)
        return try MarkerRenderer().render(request)
    }
}

/// The service stopped before it listened on a port.
struct LiveServiceError: Error {
    static let neverListened = LiveServiceError()
}

/// The JSON body of every error response.
struct ErrorBody: Decodable {
    let error: String
    let parameter: String?

    init(_ response: LiveResponse) throws {
        self = try JSONDecoder().decode(ErrorBody.self, from: Data(response.body.readableBytesView))
    }
}

extension LiveResponse {
    var bytes: [UInt8] { Array(body.readableBytesView) }
    var text: String { String(buffer: body) }
}

/// The bytes of one of the project's shared test routes.
func sharedRouteBytes(_ name: String) throws -> [UInt8] {
    [UInt8](try Data(contentsOf: Repository.sharedRoutes.appendingPathComponent(name)))
}
