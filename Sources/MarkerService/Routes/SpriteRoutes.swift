import Hummingbird
import MarkerQuery
import MarkerSpec

/// What a map SDK fetches by itself: `GET /v1/sprites/<spelling>-<hash>[@2x].png|json`, a route's
/// sprite sheets, and `GET /v1/icons/<id>[@2x|@3x].png`, one icon by the id a feature carries (for
/// `styleimagemissing`). Both are named by content hashes that any instance checks by drawing
/// again, so they are cached for good, and a name whose hash no longer matches is `404`. With a
/// signing key, both are asked for by signed URLs only (`/v1/sprites/<signature>/…`), checked
/// before anything is looked up or drawn.
struct SpriteRoutes: Sendable {
    let images: MarkerImages
    let sheets: SpriteSheets
    /// Sheets not yet drawn wait their turn with route requests: they cost as much.
    let concurrency: ConcurrencyLimit
    let access: SignedAccess
    let limiter: ClientLimiter

    func add(to router: Router<ServiceRequestContext>) {
        for endpoint in [Endpoint.icon, Endpoint.signedIcon] {
            router.on(RouterPath(endpoint.path), method: endpoint.method) { request, context in
                let file = try await access.file(request, context, .icons) { MarkerImages.iconFile($0)?.id }
                return try await icon(request, context, file: file)
            }
        }
        for endpoint in [Endpoint.sprite, .signedSprite] {
            router.on(RouterPath(endpoint.path), method: endpoint.method) { request, context in
                let file = try await access.file(request, context, .sprites) { SpriteSheets.parts(of: $0)?.name[...] }
                return try await sprite(request, context, file: file)
            }
        }
    }

    private func icon(_ request: Request, _ context: ServiceRequestContext, file: String) async throws -> Response {
        if !images.iconIsCached(named: file) { try await limiter.draws(context.client, images: SpriteID.everyScale.count) }
        guard let image = try await images.icon(named: file) else {
            throw ServiceError.notFound("no such icon: the name is not a marker id whose hash matches what it shows at 1x, @2x and @3x")
        }
        return ContentResponse(image: image, cacheControl: ContentResponse.namedCacheControl, canonicalPath: nil).response(to: request)
    }

    private func sprite(_ request: Request, _ context: ServiceRequestContext, file: String) async throws -> Response {
        let found: SpriteSheets.File?
        switch sheets.cachedFile(named: file) {
        case .found(let cached): found = cached
        case .notFound: found = nil
        case .unknown:
            // Drawing a sheet costs as much as a route: the client's limit first (charged its pictures
            // at every scale, counted from the name), then a place in the queue.
            let images = (sheets.pictureCount(named: file) ?? 0) * SpriteID.everyScale.count
            found = try await limiter.expensive(context.client, images: images) { _ in
                try await concurrency.withPlace { try await sheets.file(named: file) }
            }
        }
        guard let found else {
            throw ServiceError.notFound(
                "no such sprite sheet: the name does not spell at most \(sheets.maximumPictures) pictures "
                    + "with the hash of the sheet they make")
        }
        return ContentResponse(bytes: found.bytes, sha256: found.sha256, contentType: found.contentType).response(to: request)
    }
}
