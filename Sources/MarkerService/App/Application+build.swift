public import Hummingbird
import HummingbirdCore
public import Logging
import MarkerMap
import MarkerPins
import MarkerRender
import RouteModel
import RoutePlacement
import MarkerSpec
import NIOCore
public import Prometheus

/// The marker service, ready to run: render threads started, routes and middleware in place.
///
/// `registry` receives the service's metrics (a fresh one by default, so several applications in
/// one process, as in tests, never share counters); `logger` defaults to one at the configured
/// level. Fails if a renderer cannot be made, e.g. because the Inter font is missing, before
/// anything listens.
public func buildApplication(
    _ configuration: ServiceConfiguration,
    registry: PrometheusCollectorRegistry = PrometheusCollectorRegistry(),
    logger: Logger? = nil,
    onServerRunning: @escaping @Sendable (_ port: Int) async -> Void = { _ in }
) async throws -> some ApplicationProtocol {
    try configuration.validate()
    let signer = try configuration.signer()
    let trustedProxies = try configuration.proxyRanges()
    // Written by a thread of its own: a stderr nobody reads must not stall the event loops.
    let defaultLogger = ServiceLogHandler.standardErrorLogger(
        label: "markerpaint.serve", level: Logger.Level(rawValue: configuration.logLevel) ?? .info)
    let metrics = ServiceMetrics(registry: registry)
    // Warm: the first request at each scale and unit would otherwise wait for fonts and shaping
    // (measured with curl on a fresh service: 2.3-6.6 ms cold, 1.3-1.6 ms warmed, 1.0-1.6 ms later).
    let renderPool = try await CPUPool.renderers(threads: configuration.renderThreads, warm: true)
    // Route threads measure the pictures they place on the map with renderers of their own, warm too.
    let routePool = try await CPUPool.renderers(
        name: "route", threads: configuration.routeThreads, capacity: 2 * configuration.maximumConcurrentRoutes, warm: true)
    let images = MarkerImages(pool: renderPool, cacheBytes: configuration.cacheBytes, metrics: metrics)

    let limiter = ClientLimiter(policy: configuration.clientPolicy)
    let router = Router(context: ServiceRequestContext.self, options: .autoGenerateHeadEndpoints)
    // Outermost first: the log and the metrics see the status the error middleware settled on, and
    // CORS headers go on error responses too. The client is known before any of them.
    router.add(middleware: RequestLogMiddleware())
    router.add(middleware: RequestMetricsMiddleware(metrics: metrics))
    router.add(middleware: CORSMiddleware(origins: configuration.corsOrigins))
    router.add(middleware: JSONErrorMiddleware())
    router.add(middleware: ClientMiddleware(trustedProxies: trustedProxies, limiter: limiter))
    // A quarter of the cache for sheets: each is many images' worth, and is drawn again from its name.
    let sheets = SpriteSheets(
        images: images, workers: routePool, cacheBytes: configuration.cacheBytes / 4,
        maximumPictures: max(1, min(configuration.maximumSheetPictures, configuration.maximumRouteImages / SpriteID.everyScale.count)))
    let routeConcurrency = ConcurrencyLimit(
        maximum: configuration.maximumConcurrentRoutes, maximumWaiting: configuration.maximumWaitingRoutes)
    let routeWorkers = RouteWorkers(pool: routePool)
    let access = SignedAccess(signer: signer, limiter: limiter)
    let urls = ServiceURLs(signer: signer)
    MarkerRoutes(images: images, access: access, urls: urls, limiter: limiter).add(to: router)
    // Pins and callouts on a pool of their own, as many threads as markers, as many waiting as a thread holds.
    let picturePool = try await PictureRenderers.pool(threads: configuration.renderThreads, capacity: 64 * configuration.renderThreads)
    PictureRoutes(pool: picturePool, access: access, limiter: limiter, metrics: metrics, urls: urls, photoBytes: min(CalloutPhoto.limits.bytes, configuration.maximumRouteBytes)).add(to: router)
    SpriteRoutes(images: images, sheets: sheets, concurrency: routeConcurrency, access: access, limiter: limiter).add(to: router)
    let routeWork = RouteWork(
        images: images, pictures: picturePool, pictureRecords: PictureRecords(capacityBytes: 4 << 20), metrics: metrics, urls: urls, limiter: limiter, workers: routeWorkers, concurrency: routeConcurrency,
        publicBaseURL: configuration.publicBaseURL)
    var preparing = PreparedRoute.Limits()
    preparing.plan = MarkerPlan.Limits(maximumMarkers: configuration.maximumRouteMarkers, maximumReading: Marker.maximumDistance)
    preparing.images = configuration.maximumRouteImages
    preparing.offlineTiles = configuration.maximumOfflineTiles
    RouteMarkersRoutes(
        work: routeWork, sheets: sheets,
        limits: RouteMarkersRoutes.Limits(
            bodyBytes: configuration.maximumRouteBytes, preparing: preparing, responseBytes: configuration.maximumResponseBytes)
    ).add(to: router)
    OfflineTileRoutes(
        work: routeWork,
        limits: OfflineTileRoutes.Limits(
            bodyBytes: configuration.maximumRouteBytes, tiles: configuration.maximumOfflineTiles, responseBytes: configuration.maximumResponseBytes)
    ).add(to: router)
    ProgressRoutes(
        work: routeWork,
        limits: ProgressRoutes.Limits(
            bodyBytes: configuration.maximumRouteBytes, fixes: configuration.maximumProgressFixes,
            images: configuration.maximumRouteImages, responseBytes: configuration.maximumResponseBytes)
    ).add(to: router)
    OperationsRoutes(metrics: metrics).add(to: router)

    let deadlines = ConnectionDeadlines.Limits(
        idle: TimeAmount(configuration.idleTimeout), body: TimeAmount(configuration.bodyTimeout),
        request: TimeAmount(configuration.requestTimeout), discardBytes: configuration.maximumRouteBytes)
    let server = HTTPServerBuilder.http1(
        configuration: HTTP1Channel.Configuration(
            additionalChannelHandlers: [ConnectionDeadlines(limits: deadlines)],
            httpDecoderConfiguration: .init(maxHeaderFieldSize: 16 << 10, maxHeaderListSize: 32 << 10, maxHeaderFieldCount: 100)))
    return Application(
        router: router,
        server: server,
        configuration: ApplicationConfiguration(
            address: .hostname(configuration.host, port: configuration.port),
            availableConnectionsDelegate: MaximumAvailableConnections(configuration.maximumConnections)),
        // Listed before the server, so the group stops the server (and its requests) first, then the threads.
        services: [PoolLifecycle(renderPool), PoolLifecycle(routePool), PoolLifecycle(picturePool)],
        onServerRunning: { channel in await onServerRunning(channel.localAddress?.port ?? configuration.port) },
        logger: logger ?? defaultLogger)
}
