import MarkerQuery
import HTTPTypes
import Hummingbird
import NIOCore

/// A request's context: what Hummingbird keeps, the connection's peer, and the client the request
/// counts against (`ClientMiddleware` works it out from the peer and `X-Forwarded-For`).
struct ServiceRequestContext: RequestContext, RemoteAddressRequestContext {
    var coreContext: CoreRequestContextStorage
    let remoteAddress: SocketAddress?
    /// Who the request counts against for per-client limits; nil where no address is known.
    var client: IPAddress?

    init(source: ApplicationRequestContextSource) {
        coreContext = CoreRequestContextStorage(source: source)
        remoteAddress = source.channel.remoteAddress
        client = nil
    }

    /// The peer's address, as the limits read it.
    var peer: IPAddress? { remoteAddress?.ipAddress.flatMap { IPAddress($0) } }
}

/// Works out each request's client (the peer, or behind a trusted proxy the first address of
/// `X-Forwarded-For`, from the right, that is not a trusted proxy) and counts the request against
/// the client's request rate.
struct ClientMiddleware: RouterMiddleware {
    let trustedProxies: [AddressRange]
    /// Counts every request but health checks and metrics against its client's request rate.
    let limiter: ClientLimiter

    func handle(
        _ request: Request, context: ServiceRequestContext, next: (Request, ServiceRequestContext) async throws -> Response
    ) async throws -> Response {
        var context = context
        let forwardedFor = trustedProxies.isEmpty ? [] : Self.forwardedFor.map { request.headers[values: $0] } ?? []
        context.client = ClientAddress.client(peer: context.peer, forwardedFor: forwardedFor, trusted: trustedProxies)?.client
        let path = request.uri.path
        if path != Endpoint.health.path && path != Endpoint.metrics.path { try await limiter.request(context.client) }
        return try await next(request, context)
    }

    /// The field proxies name the addresses they forward for (a valid name: never nil).
    static let forwardedFor = HTTPField.Name("X-Forwarded-For")
}
