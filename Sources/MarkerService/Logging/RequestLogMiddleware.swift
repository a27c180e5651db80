import Hummingbird
import Logging

/// One info line per request: method, path with query, status and how long the answer took.
struct RequestLogMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let start = ContinuousClock.now
        let response = try await next(request, context)
        let elapsed = start.duration(to: .now)
        context.logger.info("\(request.method) \(request.uri) \(response.status.code) \(Self.milliseconds(elapsed))")
        return response
    }

    /// `1.234ms`: readable at a glance, precise enough for a cached image's tens of microseconds.
    static func milliseconds(_ duration: Duration) -> String {
        let (seconds, attoseconds) = duration.components
        let microseconds = seconds * 1_000_000 + (attoseconds + 500_000_000_000) / 1_000_000_000_000
        let fraction = String(microseconds % 1000)
        return "\(microseconds / 1000).\(String(repeating: "0", count: 3 - fraction.count))\(fraction)ms"
    }
}
