import Hummingbird
import MarkerQuery

/// What a map SDK fetches by itself: `GET /v1/sprites/<spelling>-<hash>[@2x].png|json`, a route's
/// sprite sheets, and `GET /v1/icons/<id>[@2x|@3x].png`, one icon by the id a feature carries (for
/// `styleimagemissing`). Both are named by content hashes that any instance checks by drawing
/// again, so they are cached for good, and a name whose hash no longer matches is `404`.
struct SpriteRoutes: Sendable {
    let images: MarkerImages
    let sheets: SpriteSheets
    /// Sheets not yet drawn wait their turn with route requests: they cost as much.
    let concurrency: ConcurrencyLimit

    func add(to router: Router<BasicRequestContext>) {
        router.on(RouterPath(Endpoint.icon.path), method: Endpoint.icon.method) { request, context in
            try await icon(request, file: Self.file(request, context))
        }
        router.on(RouterPath(Endpoint.sprite.path), method: Endpoint.sprite.method) { request, context in
            try await sprite(request, file: Self.file(request, context))
        }
    }

    private func icon(_ request: Request, file: String) async throws -> Response {
        guard let image = try await images.icon(named: file) else {
            throw ServiceError.notFound("no such icon: the name is not a marker id whose hash matches what it shows at 1x, @2x and @3x")
        }
        return ContentResponse(image: image, cacheControl: ContentResponse.namedCacheControl, namesCanonicalURL: false).response(to: request)
    }

    private func sprite(_ request: Request, file: String) async throws -> Response {
        let found: SpriteSheets.File?
        switch sheets.cachedFile(named: file) {
        case .found(let cached): found = cached
        case .notFound: found = nil
        case .unknown:
            guard await concurrency.enter() else { throw RouteMarkersRoutes.busy }
            defer { concurrency.leave() }
            found = try await sheets.file(named: file)
        }
        guard let found else {
            throw ServiceError.notFound(
                "no such sprite sheet: the name does not spell at most \(sheets.maximumPictures) pictures "
                    + "with the hash of the sheet they make")
        }
        return ContentResponse(bytes: found.bytes, sha256: found.sha256, contentType: found.contentType).response(to: request)
    }

    /// The path's last segment, percent-decoded; a content-hashed URL takes no query.
    private static func file(_ request: Request, _ context: BasicRequestContext) throws -> String {
        // The name alone decides the bytes; a query could only make two URLs for one file.
        guard request.uri.query?.isEmpty ?? true else {
            throw ServiceError(.badRequest, "a content-hashed URL takes no query")
        }
        guard let file = context.parameters.get("file").flatMap({ QueryParameters.decode($0[...], plusIsSpace: false) }) else {
            throw ServiceError.notFound("no such file")
        }
        return file
    }
}
