import Hummingbird
import Logging
import NIOHTTP1

/// Turns every failure into a JSON error response: the router's `404` (a `405` with `Allow` where
/// the path is known but the method is not), a body that is not valid HTTP (`400`, and the
/// connection closes), other framework errors, and (as a `500` that is logged) anything
/// unexpected, so no error reaches the client as an empty page.
struct JSONErrorMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let error as ServiceError {
            return error.response
        } catch let error as any HTTPResponseError {
            // The router's own 404 for a path and method it does not know, or a framework error with its status.
            guard error.status == .notFound else { return ServiceError(error.status, error.status.reasonPhrase).response }
            if let allowed = Endpoint.allowedMethods(forPath: request.uri.path) {
                let allow = allowed.map(\.rawValue).joined(separator: ", ")
                var response = ServiceError(.methodNotAllowed, "\(request.uri.path) answers \(allow), not \(request.method)").response
                response.headers[.allow] = allow
                return response
            }
            return ServiceError(.notFound, "no such endpoint: \(request.method) \(request.uri.path)").response
        } catch is HTTPParserError {
            // The request's framing is broken (a bad chunk size): nothing after it can be trusted.
            var response = ServiceError(.badRequest, "the request is not valid HTTP/1.1 (malformed body framing)").response
            response.headers[.connection] = "close"
            return response
        } catch {
            context.logger.error("request failed", metadata: ["error": "\(error)", "path": "\(request.uri.path)"])
            return ServiceError(.internalServerError, "internal error").response
        }
    }
}
