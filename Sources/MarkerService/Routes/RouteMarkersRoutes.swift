import Foundation
import Hummingbird
import MarkerBatch
import MarkerRender
import MarkerRoute

/// `POST /v1/routes`: a route (GeoJSON, GPX or encoded polyline) in, the batch's `markers.geojson`
/// out, with each marker's image as an absolute content-hashed URL on this service.
struct RouteMarkersRoutes: Sendable {
    let images: MarkerImages
    let maximumBodyBytes: Int
    let maximumImages: Int
    /// The most markers one route may place, and what a marker can read.
    let planLimits: MarkerPlan.Limits
    /// The origin image URLs start with; nil = `http://` and the request's `Host`.
    let publicBaseURL: String?

    static let queryParameters = ["unit", "cumulative", "themes", "scale", "polyline"]

    func add(to router: Router<BasicRequestContext>) {
        router.post("/v1/routes") { request, _ in try await markers(request) }
    }

    private func markers(_ request: Request) async throws -> Response {
        let query = try QueryParameters(request.uri.query, allowed: Self.queryParameters)
        let unit: DistanceUnit = try query.choice("unit", default: .km)
        let cumulative = try query.flag("cumulative")
        let themes = try Self.themes(query)
        let scale = try query.scale()
        let format = try Self.format(query)
        let origin = try origin(of: request)

        let bytes = try await body(of: request)
        let route: Route
        do {
            route = try Route.parse(bytes, format: format)
        } catch {
            throw ServiceError(.badRequest, "route: \(error.message)", parameter: "body")
        }
        let plan: MarkerPlan
        let imageSet: RouteImageSet
        do {
            plan = try MarkerPlan(route: route, unit: unit, cumulative: cumulative, limits: planLimits)
            imageSet = try RouteImageSet(plan: plan, themes: themes, scales: [scale])
        } catch let error as RouteError {
            throw ServiceError(.badRequest, "route: \(error.message)", parameter: "body")
        } catch let error as RenderError {
            throw ServiceError(.badRequest, "route: \(error.message)", parameter: "body")
        }
        guard imageSet.requests.count <= maximumImages else {
            throw ServiceError(.badRequest, "route: it needs \(imageSet.requests.count) distinct images; "
                + "this service draws at most \(maximumImages) per request (try fewer themes or a coarser unit)",
                parameter: "body")
        }

        let names = try await fileNames(of: imageSet.requests)
        let document = try MarkersGeoJSON.document(plan: plan, themes: themes) { _, marker, theme in
            let request = try MarkerRequest(marker: marker, theme: theme, scale: scale)
            guard let name = names[request] else { throw ServiceError(.internalServerError, "no image drawn for \(request.baseName)") }
            return "\(origin)/v1/images/\(name)"
        }
        return Response(
            status: .ok,
            headers: [.contentType: "application/geo+json", .cacheControl: "no-store"],
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: document)))
    }

    /// Each distinct image's file name, drawn (or found in the cache) concurrently on the render pool.
    private func fileNames(of requests: [MarkerRequest]) async throws -> [MarkerRequest: String] {
        try await withThrowingTaskGroup(of: (MarkerRequest, String).self) { group in
            for request in requests {
                group.addTask { (request, try await images.image(for: request).fileName) }
            }
            var names: [MarkerRequest: String] = [:]
            for try await (request, name) in group { names[request] = name }
            return names
        }
    }

    /// The body, refused with `413` as soon as it is known to exceed the limit: by `Content-Length`
    /// before reading anything, otherwise while it streams in.
    private func body(of request: Request) async throws -> [UInt8] {
        let tooLarge = ServiceError(.contentTooLarge,
                                    "the route is larger than this service accepts (\(maximumBodyBytes) bytes)",
                                    parameter: "body")
        if let length = request.headers[.contentLength].flatMap({ Int($0) }), length > maximumBodyBytes {
            throw tooLarge
        }
        var bytes: [UInt8] = []
        for try await buffer in request.body {
            guard bytes.count + buffer.readableBytes <= maximumBodyBytes else { throw tooLarge }
            bytes.append(contentsOf: buffer.readableBytesView)
        }
        return bytes
    }

    /// Where this service is reachable, for absolute image URLs.
    private func origin(of request: Request) throws(ServiceError) -> String {
        if let publicBaseURL { return publicBaseURL }
        // HTTP/1.1's Host arrives as the request's authority; it goes into URLs, so only host[:port] characters pass.
        let allowed = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.-:[]")
        guard let authority = request.head.authority, !authority.isEmpty, authority.allSatisfy(allowed.contains) else {
            throw ServiceError(.badRequest, "the Host header is missing or is not host[:port]; image URLs are built from it")
        }
        return "http://\(authority)"
    }

    /// `themes=day,night` (the default: both), each named once.
    private static func themes(_ query: QueryParameters) throws(ServiceError) -> [Theme] {
        guard let text = query["themes"] else { return [.day, .night] }
        var themes: [Theme] = []
        for name in text.split(separator: ",", omittingEmptySubsequences: false).map(String.init) {
            guard let theme = Theme.named(name) else {
                throw ServiceError.badParameter("themes", "must be day, night or day,night, not \(QueryParameters.quoted(text))")
            }
            guard !themes.contains(theme) else {
                throw ServiceError.badParameter("themes", "names \(name) more than once")
            }
            themes.append(theme)
        }
        return themes
    }

    /// `polyline=5|6` says the body is an encoded polyline of that precision; otherwise the body's
    /// first character tells GeoJSON from GPX.
    private static func format(_ query: QueryParameters) throws(ServiceError) -> RouteFormat? {
        switch query["polyline"] {
        case nil: nil
        case "5": .polyline(precision: 5)
        case "6": .polyline(precision: 6)
        case let text?: throw ServiceError.badParameter("polyline", "must be 5 or 6 (decimal places), not \(QueryParameters.quoted(text))")
        }
    }
}
