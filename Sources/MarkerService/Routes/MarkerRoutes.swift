import Hummingbird
import MarkerQuery
import MarkerSpec

/// `GET /v1/marker.png?…` (or `.svg`, `.pdf`), a marker described by its query, and
/// `GET /v1/images/<name>.png` (or `.svg`, `.pdf`), a marker by its content-hashed name (signed,
/// `/v1/images/<signature>/<name>.png`, where the service has a signing key).
struct MarkerRoutes: Sendable {
    let images: MarkerImages
    let access: SignedAccess
    let urls: ServiceURLs
    let limiter: ClientLimiter

    func add(to router: Router<ServiceRequestContext>) {
        for (format, endpoint) in Endpoint.markers {
            router.on(RouterPath(endpoint.path), method: endpoint.method) { request, context in
                try await marker(request, context, format: format)
            }
        }
        for endpoint in [Endpoint.namedImage, .signedImage] {
            router.on(RouterPath(endpoint.path), method: endpoint.method) { request, context in
                try await namedImage(request, context, file: try await access.file(request, context, .images) { $0[...] })
            }
        }
    }

    private func marker(_ request: Request, _ context: ServiceRequestContext, format: ImageFormat) async throws -> Response {
        let markerRequest: MarkerRequest
        do {
            markerRequest = try MarkerRequest(query: QueryParameters(request.uri.query, allowed: MarkerRequest.queryParameters))
        } catch {
            throw ServiceError(error)
        }
        if !images.isCached(markerRequest, format: format) { try await limiter.draws(context.client) }
        let image = try await images.image(for: markerRequest, format: format)
        return ContentResponse(image: image, cacheControl: ContentResponse.queryCacheControl, canonicalPath: urls.image(image.fileName))
            .response(to: request)
    }

    private func namedImage(_ request: Request, _ context: ServiceRequestContext, file: String) async throws -> Response {
        guard ImageFormat(endingFileName: file) != nil else {
            throw ServiceError.notFound("no such image: the name is not a marker name whose hash matches what it shows")
        }
        if !images.isCached(named: file) { try await limiter.draws(context.client) }
        guard let image = try await images.image(named: file) else {
            throw ServiceError.notFound("no such image: the name is not a marker name whose hash matches what it shows")
        }
        return ContentResponse(image: image, cacheControl: ContentResponse.namedCacheControl, canonicalPath: nil).response(to: request)
    }
}
