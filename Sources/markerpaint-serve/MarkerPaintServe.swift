import ArgumentParser
import CommandSupport
import MarkerService

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// `markerpaint serve`: the HTTP marker service, until SIGTERM or SIGINT.
///
/// An executable of its own, which `markerpaint serve` runs in its place: the service's libraries
/// (SwiftNIO, Hummingbird and theirs) would otherwise be loaded, and their type records searched,
/// every time `markerpaint` draws one marker.
@main
struct MarkerPaintServe: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "markerpaint serve",
        abstract: "Serve markers over HTTP: by query, by content-hashed name, and for whole routes.",
        discussion: """
            Endpoints:
              GET  /v1/marker.png?distance=123&kind=end&theme=night&scale=2&unit=km
              GET  /v1/marker.svg?…, /v1/marker.pdf?…   the same drawing as SVG or PDF
              GET  /v1/images/<name>.png   by content-hashed name (.svg, .pdf too), cacheable forever
              POST /v1/routes              a GeoJSON, GPX or ?polyline=5|6 body
                                           -> markers.geojson with image URLs
              GET  /healthz, /metrics      health, Prometheus text
            Example:
              markerpaint serve --port 8080 &
              curl -o end.png 'http://127.0.0.1:8080/v1/marker.png?distance=123&kind=end'
            Once listening it prints one line: markerpaint serve: listening on http://HOST:PORT
            SIGTERM or SIGINT stops accepting connections, gives the requests in
            flight --drain-timeout seconds to finish, closes what is left and exits 0.
            Limits (see docs/service.md): idle/body/request timeouts, route body,
            markers, images and response size, concurrent routes, connections, and
            per client: images drawn a second and in a burst, requests at once (429).
            With --signing-key-file, URLs for content drawn by name are signed
            (/v1/sprites/<signature>/<name>) and unsigned or forged ones get 403.
            """
    )

    @Option(help: "Address to listen on.")
    var host = "127.0.0.1"

    @Option(help: "Port to listen on (0 picks a free one).")
    var port = 8080

    @Option(help: ArgumentHelp("Memory for rendered images, in MiB.", valueName: "N"))
    var cacheMegabytes = ServiceConfiguration.defaultCacheMegabytes

    @Option(
        help: ArgumentHelp(
            "Origin for image URLs in route documents, e.g. https://markers.example.com (default: http:// and the request's Host).", valueName: "url")
    )
    var publicURL: String?

    @Option(help: ArgumentHelp("Render threads, each with its own renderer; one per core by default.", valueName: "N"))
    var threads = ServiceConfiguration.defaultRenderThreads

    @Option(help: ArgumentHelp("Seconds a connection may wait for the whole head of its next request.", valueName: "s"))
    var idleTimeout = 15.0

    @Option(help: ArgumentHelp("Seconds a request body may take to arrive.", valueName: "s"))
    var bodyTimeout = 30.0

    @Option(help: ArgumentHelp("Seconds from a request's head to the end of its response.", valueName: "s"))
    var requestTimeout = 60.0

    @Option(help: ArgumentHelp("Seconds requests in flight get to finish after SIGTERM.", valueName: "s"))
    var drainTimeout = 10.0

    @Option(help: ArgumentHelp("Largest POST /v1/routes body, in bytes.", valueName: "n"))
    var maxRouteBytes = ServiceConfiguration.defaultMaximumRouteBytes

    @Option(help: ArgumentHelp("Most markers one route request may place.", valueName: "n"))
    var maxRouteMarkers = ServiceConfiguration.defaultMaximumRouteMarkers

    @Option(help: ArgumentHelp("Most fixes one progress request may follow.", valueName: "n"))
    var maxProgressFixes = ServiceConfiguration.defaultMaximumProgressFixes

    @Option(help: ArgumentHelp("Most tiles one route's offline pack may hold.", valueName: "n"))
    var maxOfflineTiles = ServiceConfiguration.defaultMaximumOfflineTiles

    @Option(help: ArgumentHelp("Most route requests handled at once; more wait their turn.", valueName: "n"))
    var maxConcurrentRoutes = ServiceConfiguration.defaultMaximumConcurrentRoutes

    @Option(help: ArgumentHelp("Most route requests waiting their turn; more get 503.", valueName: "n"))
    var maxWaitingRoutes = ServiceConfiguration.defaultMaximumWaitingRoutes

    @Option(help: ArgumentHelp("Most connections open at once.", valueName: "n"))
    var maxConnections = ServiceConfiguration.defaultMaximumConnections

    @Option(
        name: .customLong("cors-origin"), help: ArgumentHelp("An origin browsers may call from (repeat for several; default *).", valueName: "origin")
    )
    var corsOrigins: [String] = []

    @Option(help: "Log level: trace, debug, info (one line per request), notice, warning, error or critical.")
    var logLevel = "info"

    @Option(
        help: ArgumentHelp(
            "Sign every URL for content drawn by name, and answer only signed ones, with the keys in this file: one a line, hex or base64url, at least 32 random bytes each; the first signs, all verify. Without it the service is for private networks.",
            valueName: "file"))
    var signingKeyFile: String?

    @Option(
        name: .customLong("trusted-proxy"),
        help: ArgumentHelp(
            "A proxy (address or range, e.g. 127.0.0.1 or 10.0.0.0/8) whose X-Forwarded-For names the client for the per-client limits; repeat for several.",
            valueName: "range"))
    var trustedProxies: [String] = []

    @Option(
        help: ArgumentHelp(
            "Images a second each client may have drawn (by routes, sheets and markers it asks for); 0 turns every per-client limit off.",
            valueName: "n"))
    var clientRate = ServiceConfiguration.defaultClientRate

    @Option(help: ArgumentHelp("Images a quiet client may have drawn at once before it waits (one larger request is let through).", valueName: "n"))
    var clientBurst = ServiceConfiguration.defaultClientBurst

    @Option(help: ArgumentHelp("Expensive requests (routes, sheets drawn) a client may have in flight at once.", valueName: "n"))
    var clientConcurrency = ServiceConfiguration.defaultClientConcurrency

    @Option(help: ArgumentHelp("Requests of any kind a second each client may send (health checks aside); 0 for no such limit.", valueName: "n"))
    var clientRequestRate = ServiceConfiguration.defaultClientRequestRate

    @Option(help: ArgumentHelp("Requests a quiet client may send at once.", valueName: "n"))
    var clientRequestBurst = ServiceConfiguration.defaultClientRequestBurst

    var serviceConfiguration: ServiceConfiguration {
        ServiceConfiguration(
            host: host, port: port, cacheBytes: cacheMegabytes << 20,
            maximumRouteBytes: maxRouteBytes, maximumRouteMarkers: maxRouteMarkers,
            maximumProgressFixes: maxProgressFixes, maximumOfflineTiles: maxOfflineTiles,
            maximumConcurrentRoutes: maxConcurrentRoutes, maximumWaitingRoutes: maxWaitingRoutes, renderThreads: threads,
            maximumConnections: maxConnections,
            publicBaseURL: publicURL,
            idleTimeout: Self.duration(idleTimeout), bodyTimeout: Self.duration(bodyTimeout),
            requestTimeout: Self.duration(requestTimeout), drainTimeout: Self.duration(drainTimeout),
            corsOrigins: corsOrigins.isEmpty ? ["*"] : corsOrigins, logLevel: logLevel, signingKeyFile: signingKeyFile,
            trustedProxies: trustedProxies, clientRate: clientRate, clientBurst: clientBurst, clientConcurrency: clientConcurrency,
            clientRequestRate: clientRequestRate, clientRequestBurst: clientRequestBurst)
    }

    /// Seconds as a Duration; out-of-range values are caught by validate() first.
    private static func duration(_ seconds: Double) -> Duration {
        guard seconds.isFinite, seconds > 0, seconds <= 86_400 else { return .zero }
        return .milliseconds(Int64((seconds * 1000).rounded()))
    }

    func validate() throws {
        // Checked here too so the shift into bytes cannot overflow.
        guard (0...1 << 20).contains(cacheMegabytes) else {
            throw ValidationError("the cache size must be from 0 to 1048576 MiB, not \(cacheMegabytes)")
        }
        do {
            try serviceConfiguration.validate()
        } catch {
            throw ValidationError(error.message)
        }
    }

    /// Parses and runs, reporting any failure as one line on stderr and a non-zero exit.
    static func main() async { await runReportingFailure(as: "markerpaint") }

    func run() async throws {
        let host = host
        try await runService(serviceConfiguration) { port in
            let address = host.contains(":") ? "[\(host)]" : host
            Terminal.write("markerpaint serve: listening on http://\(address):\(port)\n", to: .output)
        }
    }
}
