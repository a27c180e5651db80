import Hummingbird
import MarkerRender

/// The route threads, apart from the render threads: each with a renderer of its own to measure
/// pictures with, so parsing, placing and following never hold up health checks and cached images.
struct RouteWorkers: Sendable {
    let pool: CPUPool<MarkerRenderer>

    /// `503` with `Retry-After`: the service is at its limit of route requests.
    static var busy: ServiceError {
        ServiceError(.serviceUnavailable, "too many routes are being placed right now; retry in a moment", retryAfter: 1)
    }

    /// Runs `job` on a route thread; a full queue is `503`.
    func run<Value: Sendable>(_ job: @escaping @Sendable () throws(ServiceError) -> Value) async throws(ServiceError) -> Value {
        try await run { (_: MarkerRenderer) throws(ServiceError) in try job() }
    }

    /// Runs `job` on a route thread with the thread's renderer; a full queue is `503`.
    func run<Value: Sendable>(_ job: @escaping @Sendable (MarkerRenderer) throws(ServiceError) -> Value) async throws(ServiceError) -> Value {
        do {
            return try await pool.run { renderer in try job(renderer) }
        } catch let error as ServiceError {
            throw error
        } catch is CPUPool<MarkerRenderer>.Refusal {
            throw Self.busy
        } catch {
            throw ServiceError(.internalServerError, "\(error)")
        }
    }
}

extension ConcurrencyLimit {
    /// Runs `work` holding one of the places route requests (and sheets not in the cache) take,
    /// given back however it ends; `503` (`RouteWorkers.busy`) when too many wait already.
    func withPlace<Value>(_ work: () async throws -> Value) async throws -> Value {
        guard await enter() else { throw RouteWorkers.busy }
        defer { leave() }
        return try await work()
    }
}

/// A request's body, refused with `413` as soon as it is known to exceed `limit`: by
/// `Content-Length` before reading anything, otherwise while it streams in. `what` names it in the
/// refusal ("the route").
func requestBody(_ request: Request, limit: Int, what: String) async throws -> [UInt8] {
    let tooLarge = ServiceError(.contentTooLarge, "\(what) is larger than this service accepts (\(limit) bytes)", parameter: "body")
    if let length = request.headers[.contentLength].flatMap({ Int($0) }), length > limit {
        throw tooLarge
    }
    var bytes: [UInt8] = []
    for try await buffer in request.body {
        guard bytes.count + buffer.readableBytes <= limit else { throw tooLarge }
        bytes.append(contentsOf: buffer.readableBytesView)
    }
    return bytes
}
