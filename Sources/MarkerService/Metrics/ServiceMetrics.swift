import Metrics
import Prometheus
import Synchronization

/// The service's metrics, recorded through swift-metrics into a Prometheus registry of its own.
///
/// Every metric is made with an explicit factory instead of `MetricsSystem.bootstrap`, which may
/// run only once per process: tests build many applications, each with its own counters.
final class ServiceMetrics: Sendable {
    /// Where the metrics live; `GET /metrics` prints it.
    let registry: PrometheusCollectorRegistry

    /// Images served without drawing: from the cache, or by waiting for an identical render in flight.
    let cacheHits: Metrics.Counter
    /// Images that had to be drawn.
    let cacheMisses: Metrics.Counter
    /// PNG bytes held in the cache.
    let cacheBytes: Metrics.Gauge
    /// How long one marker takes to draw and encode, on a render thread.
    let renderDuration: Metrics.Timer
    /// Pins and callouts drawn, for a route's document or by query.
    let picturesDrawn: Metrics.Counter

    private let factory: PrometheusMetricsFactory
    /// Request metrics by route and status, made once each: the registry's own lookup takes a lock and hashes labels.
    private let requestMetrics = Mutex<[RequestKey: RequestMetrics]>([:])

    private struct RequestKey: Hashable {
        let route: String
        let status: Int
    }

    private struct RequestMetrics {
        let count: Metrics.Counter
        let duration: Metrics.Timer
    }

    init(registry: PrometheusCollectorRegistry = PrometheusCollectorRegistry()) {
        self.registry = registry
        var factory = PrometheusMetricsFactory(registry: registry)
        // Renders take milliseconds; the default buckets start at 5 ms and would lump them all together.
        factory.durationHistogramBuckets[Names.renderDuration] = [
            .microseconds(500), .milliseconds(1), .milliseconds(2), .milliseconds(5), .milliseconds(10),
            .milliseconds(20), .milliseconds(50), .milliseconds(100), .milliseconds(250), .seconds(1),
        ]
        factory.durationHistogramBuckets[Names.requestDuration] = [
            .microseconds(250), .microseconds(500), .milliseconds(1), .milliseconds(2), .milliseconds(5),
            .milliseconds(10), .milliseconds(25), .milliseconds(50), .milliseconds(100), .milliseconds(500),
            .seconds(1), .seconds(5),
        ]
        self.factory = factory
        cacheHits = Metrics.Counter(label: Names.cacheHits, factory: factory)
        cacheMisses = Metrics.Counter(label: Names.cacheMisses, factory: factory)
        cacheBytes = Metrics.Gauge(label: Names.cacheBytes, factory: factory)
        renderDuration = Metrics.Timer(label: Names.renderDuration, factory: factory)
        picturesDrawn = Metrics.Counter(label: Names.picturesDrawn, factory: factory)
    }

    /// Counts one answered request and its duration under its route pattern (bounded), not its raw path.
    func recordRequest(route: String, status: Int, duration: Duration) {
        let key = RequestKey(route: route, status: status)
        let metrics = requestMetrics.withLock { metrics in
            if let existing = metrics[key] { return existing }
            let dimensions = [("route", route), ("status", String(status))]
            let made = RequestMetrics(
                count: Metrics.Counter(label: Names.requests, dimensions: dimensions, factory: factory),
                duration: Metrics.Timer(label: Names.requestDuration, dimensions: dimensions, factory: factory))
            metrics[key] = made
            return made
        }
        metrics.count.increment()
        metrics.duration.record(duration: duration)
    }

    /// The Prometheus text exposition of every metric.
    func exposition() -> [UInt8] {
        registry.emitToBuffer()
    }

    /// Metric names, as Prometheus shows them.
    enum Names {
        static let requests = "markerpaint_http_requests_total"
        static let requestDuration = "markerpaint_http_request_duration_seconds"
        static let cacheHits = "markerpaint_cache_hits_total"
        static let cacheMisses = "markerpaint_cache_misses_total"
        static let cacheBytes = "markerpaint_cache_bytes"
        static let renderDuration = "markerpaint_render_duration_seconds"
        static let picturesDrawn = "markerpaint_pictures_drawn_total"
    }
}
