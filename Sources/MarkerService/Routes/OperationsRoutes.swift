import Hummingbird

/// `GET /healthz` for load balancers and `GET /metrics` for Prometheus.
struct OperationsRoutes: Sendable {
    let metrics: ServiceMetrics

    func add(to router: Router<ServiceRequestContext>) {
        router.on(RouterPath(Endpoint.health.path), method: Endpoint.health.method) { _, _ in
            // Up means able to answer: the render threads started before the server did.
            Response(
                status: .ok, headers: [.contentType: "text/plain; charset=utf-8", .cacheControl: "no-store"],
                body: ResponseBody(byteBuffer: ByteBuffer(string: "ok\n")))
        }
        router.on(RouterPath(Endpoint.metrics.path), method: Endpoint.metrics.method) { _, _ in
            Response(
                status: .ok,
                headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8", .cacheControl: "no-store"],
                body: ResponseBody(byteBuffer: ByteBuffer(bytes: metrics.exposition())))
        }
    }
}
