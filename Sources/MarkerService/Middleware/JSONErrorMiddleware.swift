import Hummingbird

/// Turns every failure into a JSON error response: the router's `404`, other framework errors, and
/// (as a `500` that is logged) anything unexpected, so no error reaches the client as an empty page.
struct JSONErrorMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let error as ServiceError {
            return error.response
        } catch let error as any HTTPResponseError {
            // The router's own 404 for a path it does not know, or a framework error with its status.
            let message = error.status == .notFound
                ? "no such endpoint: \(request.method) \(request.uri.path)"
                : error.status.reasonPhrase
            return ServiceError(error.status, message).response
        } catch {
            context.logger.error("request failed", metadata: ["error": "\(error)", "path": "\(request.uri.path)"])
            return ServiceError(.internalServerError, "internal error").response
        }
    }
}
