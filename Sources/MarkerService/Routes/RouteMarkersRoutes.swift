import Hummingbird
import MarkerMap
import MarkerQuery
import MarkerRender
import MarkerRoute
import MarkerSpec

/// `POST /v1/routes`: a route (GeoJSON, GPX or encoded polyline) in, the batch's `markers.geojson`
/// out, with each marker's image as a content-hashed URL on this service.
///
/// Everything a request can cost is bounded before it is spent: at most `concurrency.maximum`
/// route requests at once (later ones wait their turn, and past `concurrency.maximumWaiting` get
/// `503`), the body's size, the markers (counted from the stage
/// lengths before any is placed), the images and the response. Parsing, placement and encoding run
/// on the route threads, never on the threads that answer health checks and cached images.
struct RouteMarkersRoutes: Sendable {
    /// What one request may cost.
    struct Limits: Sendable {
        var bodyBytes: Int
        var images: Int
        var plan: MarkerPlan.Limits
        var responseBytes: Int
    }

    let images: MarkerImages
    let workers: CPUPool<Void>
    let concurrency: ConcurrencyLimit
    let limits: Limits
    /// The origin image URLs start with, e.g. `https://markers.example.com`; nil = paths on this
    /// service (`/v1/images/…`), which clients resolve against the URL they posted to.
    let publicBaseURL: String?

    func add(to router: Router<BasicRequestContext>) {
        router.on(RouterPath(Endpoint.routes.path), method: Endpoint.routes.method) { request, _ in try await markers(request) }
    }

    /// What the route threads make of a request's body.
    private struct Prepared: Sendable {
        var plan: MarkerPlan
        var imageSet: RouteImageSet
    }

    private func markers(_ request: Request) async throws -> Response {
        let options: RouteQuery
        do { options = try RouteQuery(request.uri.query) } catch { throw ServiceError(error) }
        let (unit, cumulative, themes, scale, format) = (options.unit, options.cumulative, options.themes, options.scale, options.format)

        guard await concurrency.enter() else { throw Self.busy }
        defer { concurrency.leave() }
        let bytes = try await body(of: request)
        let limits = limits
        let prepared = try await onWorkers { () throws(ServiceError) -> Prepared in
            do {
                let route = try Route.parse(bytes, format: format)
                let plan = try MarkerPlan(route: route, unit: unit, cumulative: cumulative, limits: limits.plan)
                let imageSet = try RouteImageSet(plan: plan, themes: themes, scales: [scale])
                guard imageSet.requests.count <= limits.images else {
                    throw ServiceError(
                        .badRequest,
                        "route: it needs \(imageSet.requests.count) distinct images; "
                            + "this service draws at most \(limits.images) per request (try fewer themes or a coarser unit)",
                        parameter: "body")
                }
                return Prepared(plan: plan, imageSet: imageSet)
            } catch let error as RouteError {
                throw ServiceError(.badRequest, "route: \(error.message)", parameter: "body")
            } catch let error as MapError {
                throw ServiceError(.badRequest, "route: \(error.message)", parameter: "body")
            } catch let error as ServiceError {
                throw error
            } catch {
                throw ServiceError(.internalServerError, "\(error)")
            }
        }

        let names = try await fileNames(of: prepared.imageSet.requests)
        let base = publicBaseURL ?? ""
        let document = try await onWorkers { () throws(ServiceError) -> [UInt8] in
            do {
                return try MarkersGeoJSON.document(plan: prepared.plan, themes: themes) { (routeMarker, theme) throws(ServiceError) in
                    let name = (try? MarkerRequest(marker: routeMarker.marker, theme: theme, scale: scale)).flatMap { names[$0] }
                    guard let name else {
                        throw ServiceError(.internalServerError, "no image drawn for \(routeMarker.marker.label) in \(theme.name)")
                    }
                    return "\(base)/v1/images/\(name)"
                }
            } catch let error as ServiceError {
                throw error
            } catch {
                throw ServiceError(.internalServerError, "cannot encode the markers: \(error)")
            }
        }
        guard document.count <= limits.responseBytes else {
            throw ServiceError(
                .badRequest,
                "route: its markers make a \(document.count)-byte document, more than the "
                    + "\(limits.responseBytes) bytes this service sends (try fewer themes)", parameter: "body")
        }
        return Response(
            status: .ok,
            headers: [.contentType: "application/geo+json", .cacheControl: "no-store"],
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: document)))
    }

    /// `503` with `Retry-After`: the service is at its limit of route requests.
    static var busy: ServiceError {
        ServiceError(.serviceUnavailable, "too many routes are being placed right now; retry in a moment", retryAfter: 1)
    }

    /// Runs `job` on the route threads; a full queue is `503`.
    private func onWorkers<Value: Sendable>(_ job: @escaping @Sendable () throws(ServiceError) -> Value) async throws(ServiceError) -> Value {
        do {
            return try await workers.run { _ in try job() }
        } catch let error as ServiceError {
            throw error
        } catch is CPUPool<Void>.Refusal {
            throw Self.busy
        } catch {
            throw ServiceError(.internalServerError, "\(error)")
        }
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
        let tooLarge = ServiceError(
            .contentTooLarge,
            "the route is larger than this service accepts (\(limits.bodyBytes) bytes)",
            parameter: "body")
        if let length = request.headers[.contentLength].flatMap({ Int($0) }), length > limits.bodyBytes {
            throw tooLarge
        }
        var bytes: [UInt8] = []
        for try await buffer in request.body {
            guard bytes.count + buffer.readableBytes <= limits.bodyBytes else { throw tooLarge }
            bytes.append(contentsOf: buffer.readableBytesView)
        }
        return bytes
    }
}
