import HTTPTypes
import Hummingbird
import MarkerQuery
import MarkerRender
import RouteModel
import RouteFormats
import RideTracking
import MarkerSpec

/// `POST /v1/progress`: a route and a batch of fixes in (a `multipart/form-data` body with parts
/// `route` and `fixes`, in the formats `markerpaint progress` reads); out, NDJSON, a line per fix
/// as `markerpaint progress` writes it, with the countdown marker's icon id (`marker`) and URL
/// (`icon`) in each theme. A fix that cannot be followed gets `{"line": N, "error": "…"}` in its
/// place and the rest are followed; the count of those is in `X-Refused-Fixes`.
///
/// Stateless: every request follows its fixes from the route's start, so a client sending a live
/// feed in batches sends what it has (or the batches since the last known place). Bounded like
/// routes before the work is done: the body, the fixes (counted once read, before any is
/// followed), the countdown pictures (counted once followed, before any is drawn), the response.
struct ProgressRoutes: Sendable {
    /// What one request may cost.
    struct Limits: Sendable {
        var bodyBytes: Int
        var fixes: Int
        var images: Int
        var responseBytes: Int
    }

    let work: RouteWork
    let limits: Limits

    func add(to router: Router<ServiceRequestContext>) {
        router.on(RouterPath(Endpoint.progress.path), method: Endpoint.progress.method) { request, context in
            try await progress(request, context)
        }
    }

    /// One fix followed, or refused.
    private typealias Entry = RideFollower.Outcome

    private func progress(_ request: Request, _ context: ServiceRequestContext) async throws -> Response {
        let options: ProgressQuery
        do { options = try ProgressQuery(request.uri.query) } catch { throw ServiceError(error) }
        return try await work.expensive(context.client) { permit in try await progress(request, options, permit: permit) }
    }

    private func progress(_ request: Request, _ options: ProgressQuery, permit: ClientLimiter.Permit) async throws -> Response {
        let bytes = try await requestBody(request, limit: limits.bodyBytes, what: "the route and fixes")
        let contentType = request.headers[.contentType]
        let entries = try await follow(bytes, contentType: contentType, options)
        var markers: [Marker] = []
        var seen = Set<Marker>()
        for case .followed(_, _, _, let marker) in entries where seen.insert(marker).inserted { markers.append(marker) }
        let cost = markers.count * options.themes.count * SpriteID.everyScale.count
        guard cost <= limits.images else {
            throw ServiceError(
                .badRequest,
                "fixes: they need \(cost) distinct images (each countdown marker at 1x, @2x and @3x); this service "
                    + "draws at most \(limits.images) per request (try fewer fixes, a coarser interval or fewer themes)",
                parameter: "body")
        }
        permit.charge(cost)
        let drawn = try await work.images.pictures(of: markers, themes: options.themes)
        let body = try await lines(entries, options, drawn)
        let refused = entries.count { if case .refused = $0 { true } else { false } }
        var headers: HTTPFields = [.contentType: "application/x-ndjson", .cacheControl: "no-store"]
        if let refusedFixes = HTTPField.Name("X-Refused-Fixes") { headers[refusedFixes] = String(refused) }
        return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: body)))
    }

    /// Reads the form, the route and the fixes, and follows them: every fix's progress and
    /// countdown marker, or why it was refused.
    private func follow(_ bytes: [UInt8], contentType: String?, _ options: ProgressQuery) async throws(ServiceError) -> [Entry] {
        let limits = limits
        return try await work.workers.run { () throws(ServiceError) -> [Entry] in
            do {
                let form = try FormData(bytes, contentType: contentType, names: ["route", "fixes"])
                guard let routePart = form["route"], let fixesPart = form["fixes"] else {
                    throw ServiceError(.badRequest, "body: the form needs a part \"route\" and a part \"fixes\"", parameter: "body")
                }
                // The query names a format; failing that the part's file name; failing that its content.
                let routeFormat = options.routeFormat ?? routePart.fileName.flatMap(RouteFormat.init(fileName:))
                let fixFormat = options.fixFormat ?? fixesPart.fileName.flatMap(FixFormat.init(fileName:))
                let route: Route
                do throws(RouteError) {
                    route = try Route.parse(routePart.bytes, format: routeFormat)
                } catch {
                    throw ServiceError(.badRequest, "route: \(error.message)", parameter: "body")
                }
                let records: [FixRecord]
                do throws(FixError) {
                    records = try FixReader.read(fixesPart.bytes, format: fixFormat)
                } catch {
                    throw ServiceError(.badRequest, "fixes: \(error.message)", parameter: "body")
                }
                guard records.count <= limits.fixes else {
                    throw ServiceError(
                        .badRequest, "fixes: \(records.count) of them; this service follows at most \(limits.fixes) per request (send them in batches)",
                        parameter: "body")
                }
                let course: RouteCourse
                do throws(RouteError) { course = try RouteCourse(route: route) } catch {
                    throw ServiceError(.badRequest, "route: \(error.message)", parameter: "body")
                }
                var follower = RideFollower(course: course, options: options.followerOptions)
                var entries: [Entry] = []
                entries.reserveCapacity(records.count)
                for record in records { entries.append(try follower.follow(record)) }
                return entries
            } catch let error as ServiceError {
                throw error
            } catch let error as QueryError {
                throw ServiceError(error)
            } catch {
                throw ServiceError(.internalServerError, "\(error)")
            }
        }
    }

    /// The response: a line per fix, held to the response limit.
    private func lines(_ entries: [Entry], _ options: ProgressQuery, _ drawn: [ThemedMarker: DrawnPicture]) async throws(ServiceError) -> [UInt8] {
        let (limit, base, urls) = (limits.responseBytes, work.publicBaseURL ?? "", work.urls)
        return try await work.workers.run { () throws(ServiceError) -> [UInt8] in
            // Ids and URLs once per countdown marker, not once per fix: a signed URL costs an HMAC.
            var named: [Marker: (ids: [String], urls: [String])] = [:]
            for marker in Set(drawn.keys.map(\.marker)) {
                let pictures = options.themes.compactMap { drawn[ThemedMarker(marker: marker, theme: $0)] }
                guard pictures.count == options.themes.count else {
                    throw ServiceError(.internalServerError, "no image drawn for \(marker.label)")
                }
                named[marker] = (pictures.map(\.id.value), pictures.map { base + urls.icon($0.id, ratio: options.ratio) })
            }
            var body: [UInt8] = []
            for entry in entries {
                switch entry {
                case .followed(let progress, let fix, let line, let marker):
                    guard let (ids, icons) = named[marker] else {
                        throw ServiceError(.internalServerError, "no image drawn for \(marker.label)")
                    }
                    var text = ProgressLine(progress, fix: fix, line: line, unit: options.unit)
                    text.append("marker", ids)
                    text.append("icon", icons)
                    body.append(contentsOf: text.json.utf8)
                case .refused(let line, let error):
                    body.append(contentsOf: ProgressLine.refusal(line: line, error).utf8)
                }
                body.append(0x0A)
                guard body.count <= limit else {
                    throw ServiceError(
                        .badRequest, "fixes: their lines make more than the \(limit) bytes this service sends (send them in batches)",
                        parameter: "body")
                }
            }
            return body
        }
    }
}
