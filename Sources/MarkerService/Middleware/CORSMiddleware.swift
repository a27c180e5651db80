import HTTPTypes
import Hummingbird

/// Lets pages on other origins use the service from the browser (CORS): `*` by default, or a list
/// of origins, each echoed back with `Vary: Origin`. Answers preflights for known paths with `204`.
struct CORSMiddleware<Context: RequestContext>: RouterMiddleware {
    /// `["*"]` for any origin, or exact origins such as `https://maps.example.com`.
    let origins: [String]

    /// How long a browser may cache a preflight's answer.
    static var preflightMaxAge: String { "86400" }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let origin = request.headers[.origin]
        if request.method == .options, let allowed = Endpoint.allowedMethods(forPath: request.uri.path) {
            var headers: HTTPFields = [.allow: allowed.map(\.rawValue).joined(separator: ", ")]
            if let origin, request.headers[.accessControlRequestMethod] != nil, let allowOrigin = allowOrigin(for: origin) {
                headers[.accessControlAllowOrigin] = allowOrigin
                headers[.accessControlAllowMethods] = allowed.map(\.rawValue).joined(separator: ", ")
                headers[.accessControlAllowHeaders] = "Content-Type, If-None-Match"
                headers[.accessControlMaxAge] = Self.preflightMaxAge
                if allowOrigin != "*" { headers[.vary] = "Origin" }
            }
            return Response(status: .noContent, headers: headers)
        }
        var response = try await next(request, context)
        if let origin, let allowOrigin = allowOrigin(for: origin) {
            response.headers[.accessControlAllowOrigin] = allowOrigin
            response.headers[.accessControlExposeHeaders] = "ETag, Content-Location, Retry-After, X-Refused-Fixes"
            if allowOrigin != "*" { response.headers.append(HTTPField(name: .vary, value: "Origin")) }
        }
        return response
    }

    /// The `Access-Control-Allow-Origin` value for `origin`, or nil if it is not allowed.
    private func allowOrigin(for origin: String) -> String? {
        if origins.contains("*") { return "*" }
        return origins.contains(origin) ? origin : nil
    }
}
