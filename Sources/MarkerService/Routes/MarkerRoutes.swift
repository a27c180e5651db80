import Hummingbird
import MarkerQuery
import MarkerSpec

/// `GET /v1/marker.png?…` (or `.svg`, `.pdf`), a marker described by its query, and
/// `GET /v1/images/<name>.png` (or `.svg`, `.pdf`), a marker by its content-hashed name.
struct MarkerRoutes: Sendable {
    let images: MarkerImages

    func add(to router: Router<BasicRequestContext>) {
        for (format, endpoint) in Endpoint.markers {
            router.on(RouterPath(endpoint.path), method: endpoint.method) { request, _ in try await marker(request, format: format) }
        }
        router.on(RouterPath(Endpoint.namedImage.path), method: Endpoint.namedImage.method) { request, context in
            try await namedImage(request, file: context.parameters.get("file"))
        }
    }

    private func marker(_ request: Request, format: ImageFormat) async throws -> Response {
        let markerRequest: MarkerRequest
        do {
            markerRequest = try MarkerRequest(query: QueryParameters(request.uri.query, allowed: MarkerRequest.queryParameters))
        } catch {
            throw ServiceError(error)
        }
        let image = try await images.image(for: markerRequest, format: format)
        return ContentResponse(image: image, cacheControl: ContentResponse.queryCacheControl, namesCanonicalURL: true)
            .response(to: request)
    }

    private func namedImage(_ request: Request, file: String?) async throws -> Response {
        // The name alone decides the bytes; a query could only make two URLs for one image.
        guard request.uri.query?.isEmpty ?? true else {
            throw ServiceError(.badRequest, "a content-hashed image URL takes no query")
        }
        guard let file = file.flatMap({ QueryParameters.decode($0[...], plusIsSpace: false) }), ImageFormat(endingFileName: file) != nil,
            let image = try await images.image(named: file)
        else {
            throw ServiceError.notFound("no such image: the name is not a marker name whose hash matches what it shows")
        }
        return ContentResponse(image: image, cacheControl: ContentResponse.namedCacheControl, namesCanonicalURL: false)
            .response(to: request)
    }
}
