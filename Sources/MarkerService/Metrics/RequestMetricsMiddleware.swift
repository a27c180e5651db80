import Hummingbird

/// Counts every answered request by route pattern and status, and times it.
struct RequestMetricsMiddleware<Context: RequestContext>: RouterMiddleware {
    let metrics: ServiceMetrics

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let start = ContinuousClock.now
        let response = try await next(request, context)
        // The pattern (`/v1/images/{file}`), never the raw path: one series per route, whatever clients send.
        metrics.recordRequest(
            route: context.endpointPath ?? "unmatched", status: Int(response.status.code),
            duration: start.duration(to: .now))
        return response
    }
}
