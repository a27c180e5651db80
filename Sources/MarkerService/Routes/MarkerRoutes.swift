import Foundation
import Hummingbird
import MarkerRender

/// `GET /v1/marker.png?…`, a marker described by its query, and `GET /v1/images/<name>.png`, a
/// marker by its content-hashed name.
struct MarkerRoutes: Sendable {
    let images: MarkerImages

    func add(to router: Router<BasicRequestContext>) {
        router.on(RouterPath(Endpoint.marker.path), method: Endpoint.marker.method) { request, _ in try await marker(request) }
        router.on(RouterPath(Endpoint.namedImage.path), method: Endpoint.namedImage.method) { request, context in
            try await namedImage(request, file: context.parameters.get("file"))
        }
    }

    private func marker(_ request: Request) async throws -> Response {
        let query = try QueryParameters(request.uri.query, allowed: MarkerRequest.queryParameters)
        let markerRequest = try MarkerRequest(query: query)
        let image = try await images.image(for: markerRequest)
        return ImageResponse(image: image, cacheControl: ImageResponse.queryCacheControl, namesCanonicalURL: true)
            .response(to: request)
    }

    private func namedImage(_ request: Request, file: String?) async throws -> Response {
        // The name alone decides the bytes; a query could only make two URLs for one image.
        guard request.uri.query?.isEmpty ?? true else {
            throw ServiceError(.badRequest, "a content-hashed image URL takes no query")
        }
        guard let file = file?.removingPercentEncoding, file.hasSuffix(".png"),
              let image = try await images.image(named: file)
        else {
            throw ServiceError.notFound("no such image: the name is not a marker name whose hash matches what it shows")
        }
        return ImageResponse(image: image, cacheControl: ImageResponse.namedCacheControl, namesCanonicalURL: false)
            .response(to: request)
    }
}

extension MarkerRequest {
    /// What `/v1/marker.png` understands.
    static let queryParameters = ["distance", "kind", "theme", "scale", "unit"]

    /// The image a `/v1/marker.png` query asks for: `distance` (required but for `kind=start`),
    /// `kind` (distance), `theme` (day), `scale` (2), `unit` (km).
    init(query: QueryParameters) throws(ServiceError) {
        let kind: Marker.Kind = try query.choice("kind", default: .distance)
        let unit: Marker.Unit = try query.choice("unit", default: .km)
        let theme = try query.theme()
        let scale = try query.scale()
        let distance = try query.decimal("distance") ?? (kind == .start ? 0 : .nan)
        let shown = query["distance"].map(QueryParameters.quoted) ?? ""
        guard !distance.isNaN else {
            throw ServiceError.badParameter("distance", "required for kind=\(kind.rawValue) (only kind=start may leave it out)")
        }
        guard distance >= 0 else { throw ServiceError.badParameter("distance", "must not be negative, not \(shown)") }
        guard distance <= Marker.maximumDistance else {
            throw ServiceError.badParameter("distance", "must be at most \(Int(Marker.maximumDistance)), not \(shown)")
        }
        guard kind != .start || distance == 0 else {
            throw ServiceError.badParameter("distance", "must be 0 or left out for kind=start, not \(shown)")
        }
        do {
            self = try MarkerRequest(marker: Marker(kind: kind, distance: distance, unit: unit), theme: theme, scale: scale)
        } catch {
            // Unreachable after the checks above, but a new rule in Marker must still be a 400.
            throw ServiceError.badParameter("distance", error.message)
        }
    }
}
