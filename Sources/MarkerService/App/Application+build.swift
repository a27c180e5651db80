import Hummingbird
import Logging
import MarkerRender
import MarkerRoute
import Prometheus

/// The marker service, ready to run: render threads started, routes and middleware in place.
///
/// `registry` receives the service's metrics (a fresh one by default, so several applications in
/// one process, as in tests, never share counters); `logger` defaults to one at the configured
/// level. Fails if a renderer cannot be made, e.g. because the Inter font is missing, before
/// anything listens.
public func buildApplication(
    _ configuration: ServiceConfiguration,
    registry: PrometheusCollectorRegistry = PrometheusCollectorRegistry(),
    logger: Logger? = nil
) async throws -> some ApplicationProtocol {
    try configuration.validate()
    var defaultLogger = Logger(label: "markerpaint.serve")
    defaultLogger.logLevel = Logger.Level(rawValue: configuration.logLevel) ?? .info
    let metrics = ServiceMetrics(registry: registry)
    let pool = try await RenderPool.start(threads: configuration.renderThreads, metrics: metrics)
    let images = MarkerImages(pool: pool, cacheBytes: configuration.cacheBytes, metrics: metrics)

    let router = Router(options: .autoGenerateHeadEndpoints)
    // Outermost first: the log and the metrics see the status the error middleware settled on.
    router.add(middleware: RequestLogMiddleware())
    router.add(middleware: RequestMetricsMiddleware(metrics: metrics))
    router.add(middleware: JSONErrorMiddleware())
    MarkerRoutes(images: images).add(to: router)
    RouteMarkersRoutes(
        images: images, maximumBodyBytes: configuration.maximumRouteBytes,
        maximumImages: configuration.maximumRouteImages,
        planLimits: MarkerPlan.Limits(maximumMarkers: configuration.maximumRouteMarkers, maximumReading: Marker.maximumDistance),
        publicBaseURL: configuration.publicBaseURL
    ).add(to: router)
    OperationsRoutes(metrics: metrics).add(to: router)

    return Application(
        router: router,
        configuration: ApplicationConfiguration(address: .hostname(configuration.host, port: configuration.port)),
        // Listed before the server, so the group stops the server (and its requests) first, then the render threads.
        services: [pool],
        logger: logger ?? defaultLogger)
}
