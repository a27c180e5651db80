import Hummingbird
import MarkerPins
import MarkerQuery
import MarkerRender
import MarkerSpec
import Metrics

/// `GET /v1/pin.png?icon=…&color=…` and `GET /v1/callout.png?title=…&line=…&line=…&badge=…` (or
/// `.svg`, `.pdf`), with `theme` and `scale`, drawn on a pool of their own; `POST /v1/callout.png`
/// with a photo (JPEG or PNG) as its body and the same query. And a route's pins and callouts as
/// its document hands them out: `/v1/pictures/[<signature>/]<file>?<query>`, drawn by the query and
/// answered only if the picture is the file named (its hash), so the URL names its bytes for good.
struct PictureRoutes: Sendable {
    let pool: CPUPool<PictureRenderers>
    let access: SignedAccess
    let limiter: ClientLimiter
    let metrics: ServiceMetrics
    /// Spells the `/v1/pictures/…` URL a PNG drawn by query is named by, signed where the service signs.
    let urls: ServiceURLs
    /// The largest photo body taken: the photo limit, or the service's body limit if smaller.
    let photoBytes: Int

    func add(to router: Router<ServiceRequestContext>) {
        for (format, endpoint) in Endpoint.pins {
            router.on(RouterPath(endpoint.path), method: endpoint.method) { request, context in
                try await pin(request, context, format: format)
            }
        }
        for (format, endpoint) in Endpoint.callouts {
            router.on(RouterPath(endpoint.path), method: endpoint.method) { request, context in
                try await callout(request, context, format: format)
            }
        }
        for endpoint in [Endpoint.picture, .signedPicture] {
            router.on(RouterPath(endpoint.path), method: endpoint.method) { request, context in
                try await routePicture(request, context)
            }
        }
    }

    private func routePicture(_ request: Request, _ context: ServiceRequestContext) async throws -> Response {
        let file = try await access.file(request, context, .pictures, drawnByQuery: true) { $0[...] }
        let notFound = ServiceError.notFound("no such picture: the query does not draw the file named (a pin's or callout's, its hash matching)")
        let picture: PictureRequest
        do {
            let query = request.uri.query
            if file.hasPrefix("pin-") {
                picture = .pin(try PinRequest(query: QueryParameters(query, allowed: PinRequest.queryParameters)))
            } else if file.hasPrefix("callout-") {
                picture = .callout(try CalloutRequest(query: QueryParameters(query, allowed: CalloutRequest.queryParameters, repeatable: ["line"])))
            } else {
                throw notFound
            }
        } catch let error as QueryError {
            throw ServiceError(error)
        }
        try await limiter.draws(context.client)
        let (image, bytes) = try await draw { renderers in try renderers.render(picture) }
        guard image.fileName == file else { throw notFound }
        return ContentResponse(bytes: ByteBuffer(bytes: bytes), sha256: image.sha256, contentType: image.format.mediaType).response(to: request)
    }

    private func pin(_ request: Request, _ context: ServiceRequestContext, format: ImageFormat) async throws -> Response {
        let pinRequest: PinRequest
        do {
            pinRequest = try PinRequest(query: QueryParameters(request.uri.query, allowed: PinRequest.queryParameters))
        } catch {
            throw ServiceError(error)
        }
        try await limiter.draws(context.client)
        let (image, bytes) = try await draw { renderers in try renderers.pins.render(pinRequest, format: format) }
        return response(image, bytes, drawing: .pin(pinRequest), to: request)
    }

    private func callout(_ request: Request, _ context: ServiceRequestContext, format: ImageFormat) async throws -> Response {
        var photo: [UInt8]? = nil
        if request.method == .post {
            let body = try await requestBody(request, limit: photoBytes, what: "the photo")
            // Only the header here: what it claims is bounded before anything is decoded.
            do { _ = try CalloutPhoto(body) } catch { throw ServiceError(.badRequest, error.message, parameter: "body") }
            photo = body
        }
        let calloutRequest: CalloutRequest
        do {
            let query = try QueryParameters(request.uri.query, allowed: CalloutRequest.queryParameters, repeatable: ["line"])
            calloutRequest = try CalloutRequest(query: query, photo: photo)
        } catch {
            throw ServiceError(error)
        }
        try await limiter.draws(context.client)
        // Decoded on the pool, not on the event loop, and after the client's allowance.
        let given = photo
        let drawn = try await draw { renderers -> Result<(PictureImage, [UInt8]), PhotoError> in
            if let given {
                do throws(PhotoError) { try CalloutPhoto(given).check() } catch { return .failure(error) }
            }
            return .success(try renderers.callouts.render(calloutRequest, format: format))
        }
        switch drawn {
        case .success(let (image, bytes)): return response(image, bytes, drawing: .callout(calloutRequest), to: request)
        case .failure(let error): throw ServiceError(.badRequest, error.message, parameter: "body")
        }
    }

    /// Draws on the pool; a pool too busy to queue more is a 503 with `Retry-After`, as for markers.
    private func draw<Value: Sendable>(_ job: @escaping @Sendable (inout PictureRenderers) throws -> Value) async throws -> Value {
        do {
            let value = try await pool.run(job)
            metrics.picturesDrawn.increment()
            return value
        } catch is CPUPool<PictureRenderers>.Refusal {
            throw ServiceError(.serviceUnavailable, "the service is drawing as much as it can; try again shortly", retryAfter: 1)
        }
    }

    /// The picture drawn by query; a PNG that a query can draw again is named, as `/v1/marker.png`
    /// names its image, by its `/v1/pictures/…` URL in `Content-Location` (signed where the service signs).
    private func response(_ image: PictureImage, _ bytes: [UInt8], drawing picture: PictureRequest, to request: Request) -> Response {
        let canonical = image.format == .png ? picture.query.map { urls.picture(image.fileName, query: $0) } : nil
        return ContentResponse(
            bytes: ByteBuffer(bytes: bytes), sha256: image.sha256, contentType: image.format.mediaType,
            cacheControl: ContentResponse.queryCacheControl, canonicalPath: canonical
        ).response(to: request)
    }
}
