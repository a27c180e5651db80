import ArgumentParser
import MarkerService

/// Runs the HTTP marker service until SIGTERM or SIGINT.
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve markers over HTTP: by query, by content-hashed name, and for whole routes.",
        discussion: """
        Endpoints:
          GET  /v1/marker.png?distance=123&kind=end&theme=night&scale=2&unit=km
          GET  /v1/images/<name>.png   by content-hashed name, cacheable forever
          POST /v1/routes              a GeoJSON, GPX or ?polyline=5|6 body
                                       -> markers.geojson with image URLs
          GET  /healthz, /metrics      health, Prometheus text
        Example:
          markerpaint serve --port 8080 &
          curl -o end.png 'http://127.0.0.1:8080/v1/marker.png?distance=123&kind=end'
        SIGTERM or SIGINT stops accepting connections, finishes the requests
        in flight and exits 0.
        """
    )

    @Option(help: "Address to listen on.")
    var host = "127.0.0.1"

    @Option(help: "Port to listen on (0 picks a free one).")
    var port = 8080

    @Option(help: ArgumentHelp("Memory for rendered images, in MiB.", valueName: "N"))
    var cacheMegabytes = ServiceConfiguration.defaultCacheMegabytes

    @Option(help: ArgumentHelp("Origin for image URLs in route documents, e.g. https://markers.example.com (default: http:// and the request's Host).", valueName: "url"))
    var publicURL: String?

    @Option(help: ArgumentHelp("Render threads, each with its own renderer; one per core by default.", valueName: "N"))
    var threads = ServiceConfiguration.defaultRenderThreads

    @Option(help: "Log level: trace, debug, info (one line per request), notice, warning, error or critical.")
    var logLevel = "info"

    var serviceConfiguration: ServiceConfiguration {
        ServiceConfiguration(
            host: host, port: port, cacheBytes: cacheMegabytes << 20, renderThreads: threads,
            publicBaseURL: publicURL, logLevel: logLevel)
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

    func run() async throws {
        try await buildApplication(serviceConfiguration).runService()
    }
}
