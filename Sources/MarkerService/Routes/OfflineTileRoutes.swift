import HTTPTypes
import Hummingbird
import MarkerMap
import MarkerQuery
import MarkerRender
import RouteModel
import RouteFormats
import MarkerPNG
import OfflineCorridor
import RoutePlacement

/// `POST /v1/offline/tiles`: the route's offline pack's `tiles.json` (every tile, zoom by zoom, with
/// the counts and the box's), for the body and query `POST /v1/routes?offline=true` was given (`offline`
/// may be left out here). gzip-compressed when the client accepts it, as every HTTP client does: a
/// list of tiles shrinks about five times.
struct OfflineTileRoutes: Sendable {
    struct Limits: Sendable {
        var bodyBytes: Int
        var tiles: Int
        var responseBytes: Int
    }

    let work: RouteWork
    let limits: Limits

    /// Tiles a client is charged an image for: the work is the union and the scan, about an image's per this many.
    static let tilesPerImage = 10_000

    func add(to router: Router<ServiceRequestContext>) {
        router.on(RouterPath(Endpoint.offlineTiles.path), method: Endpoint.offlineTiles.method) { request, context in
            try await tiles(request, context)
        }
    }

    private func tiles(_ request: Request, _ context: ServiceRequestContext) async throws -> Response {
        // The same query as the route's, where `offline=true` goes without saying.
        let options: RouteQuery
        do { options = try RouteQuery(request.uri.query, offlineByDefault: true) } catch { throw ServiceError(error) }
        guard var pack = options.options.offline else {
            throw ServiceError(.badRequest, "parameter \"offline\": the tile list is of an offline pack; leave it out or say true", parameter: "offline")
        }
        pack.maximumTiles = min(pack.maximumTiles, limits.tiles)
        let gzip = request.headers[.acceptEncoding].map(Self.acceptsGzip) ?? false
        return try await work.expensive(context.client) { permit in try await tiles(request, options.format, pack, gzip: gzip, permit: permit) }
    }

    private func tiles(
        _ request: Request, _ format: RouteFormat?, _ pack: OfflinePack.Options, gzip: Bool, permit: ClientLimiter.Permit
    ) async throws -> Response {
        let bytes = try await requestBody(request, limit: limits.bodyBytes, what: "the route")
        let (body, tiles) = try await work.workers.run { [pack] () throws(ServiceError) -> ([UInt8], Int) in
            do {
                let offline = try OfflinePack(route: try Route.parse(bytes, format: format), options: pack)
                let document = try OfflineFiles.tiles(offline)
                return (gzip ? try GzipCompressor().compress(document) : document, offline.count)
            } catch let error as RouteError {
                throw ServiceError(.badRequest, "route: \(error.message)", parameter: "body")
            } catch {
                throw ServiceError(.internalServerError, "cannot list the offline tiles: \(error)")
            }
        }
        permit.charge(1 + tiles / Self.tilesPerImage)
        guard body.count <= limits.responseBytes else {
            throw ServiceError(
                .badRequest, "route: its tile list is \(body.count) bytes, more than the \(limits.responseBytes) this service sends (ask for fewer zooms)",
                parameter: "body")
        }
        var headers: HTTPFields = [.contentType: "application/json", .cacheControl: "no-store", .vary: "Accept-Encoding"]
        if gzip { headers[.contentEncoding] = "gzip" }
        return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: body)))
    }

    /// Whether an `Accept-Encoding` value takes gzip (not with a weight of 0).
    static func acceptsGzip(_ value: String) -> Bool {
        value.split(separator: ",").contains { item in
            let parts = item.split(separator: ";").map { $0.filter { $0 != " " && $0 != "\t" }.lowercased() }
            guard let coding = parts.first, coding == "gzip" || coding == "x-gzip" || coding == "*" else { return false }
            let weight = parts.dropFirst().first { $0.hasPrefix("q=") }.flatMap { Double($0.dropFirst(2)) } ?? 1
            return weight > 0
        }
    }
}
