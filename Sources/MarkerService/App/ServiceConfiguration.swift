import MarkerQuery
import RouteFormats
import Logging
import SystemPackage

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// How `markerpaint serve` listens, caches, limits and builds absolute URLs.
public struct ServiceConfiguration: Sendable {
    /// Where to listen; port 0 picks a free port (tests use it).
    public var host: String
    public var port: Int
    /// The most rendered image bytes kept in memory.
    public var cacheBytes: Int
    /// The largest `POST /v1/routes` body accepted; larger is `413`.
    public var maximumRouteBytes: Int
    /// The most distinct images one `POST /v1/routes` may need, so one request cannot occupy the
    /// render threads for minutes (a 100,000 km route in two themes needs 200,000).
    public var maximumRouteImages: Int
    /// The most pictures one sprite sheet holds (a route's pictures are split over as many as they
    /// need): what a sheet URL can make any instance draw again, three scales each.
    public var maximumSheetPictures: Int
    /// The most markers one `POST /v1/routes` may place; the response holds one feature per marker.
    public var maximumRouteMarkers: Int
    /// The most fixes one `POST /v1/progress` may follow; the response holds a line per fix.
    public var maximumProgressFixes: Int
    /// The most tiles one route's offline pack may hold (`offline=true`, `/v1/offline/tiles`).
    public var maximumOfflineTiles: Int
    /// The most `POST /v1/routes` requests handled at once (each may hold its body in memory).
    public var maximumConcurrentRoutes: Int
    /// The most route requests waiting for one of those places (holding nothing but their
    /// connection); more get `503` with `Retry-After`.
    public var maximumWaitingRoutes: Int
    /// The largest route document one response may be.
    public var maximumResponseBytes: Int
    /// Render threads, each with its own renderer (Pango font map and PNG encoder).
    public var renderThreads: Int
    /// Threads that parse routes and place markers, apart from the render threads.
    public var routeThreads: Int
    /// The most connections open at once; further ones wait in the listen backlog.
    public var maximumConnections: Int
    /// The origin of image URLs in route documents, e.g. `https://markers.example.com`, for a
    /// service behind a proxy or CDN; nil = `http://` and the request's `Host`.
    public var publicBaseURL: String?
    /// How long a connection may wait for the complete head of its next request, from when it
    /// opens or its previous response ends: idle keep-alive connections and heads sent too slowly
    /// are closed after it.
    public var idleTimeout: Duration
    /// How long a request's body may take to arrive, from its head.
    public var bodyTimeout: Duration
    /// How long a request may take from its head to the end of its response (a client that reads
    /// the response too slowly is cut off too).
    public var requestTimeout: Duration
    /// After SIGTERM or SIGINT, how long requests in flight may take to finish before their
    /// connections are closed and the process exits.
    public var drainTimeout: Duration
    /// Origins whose pages may use the service from the browser (CORS); `*` allows any.
    public var corsOrigins: [String]
    /// swift-log level of the service's logger: `info` logs one line per request, `warning` none.
    public var logLevel: String
    /// A file of signing keys (one a line, hex or base64url, at least 32 random bytes each; the
    /// first signs, all verify): with one, every URL for content drawn by name is signed and only
    /// signed URLs are answered. Without, the service is for private networks.
    public var signingKeyFile: String?
    /// Proxies whose `X-Forwarded-For` names the client (addresses or ranges, `10.0.0.0/8`).
    public var trustedProxies: [String]
    /// Images a second each client's allowance of drawing refills with (0: no per-client limit),
    /// the most it holds, and how many expensive requests a client may have in flight at once.
    public var clientRate: Double
    public var clientBurst: Double
    public var clientConcurrency: Int
    /// Requests of any kind a second each client may send, and in a burst (health checks and
    /// metrics aside); 0 for no such limit.
    public var clientRequestRate: Double
    public var clientRequestBurst: Double

    public static let defaultCacheMegabytes = 64
    public static let defaultMaximumRouteBytes = 20 << 20
    public static let defaultMaximumRouteImages = 10_000
    public static let defaultMaximumRouteMarkers = 10_000
    /// Five and a half hours at one fix a second: with two themes' signed absolute URLs (about 640
    /// bytes a line) the answer stays under the response limit.
    public static let defaultMaximumProgressFixes = 20_000
    /// A million tiles: their list is about 15 MB, 3 MB gzipped (a 3,000 km route at zooms 8-16 needs under half).
    public static let defaultMaximumOfflineTiles = 1_000_000
    /// Fewer than fit 4096 px at @2x (about 2,000 pills), so a sheet drawn again from its URL
    /// alone costs about a second of one core.
    public static let defaultMaximumSheetPictures = 1024
    public static let defaultMaximumConcurrentRoutes = 4
    public static let defaultMaximumWaitingRoutes = 64
    public static let defaultMaximumResponseBytes = 16 << 20
    /// Per client: 300 images a second (about a tenth of a core), 3,000 when quiet (a 500-marker
    /// route in two themes at three scales; one larger request is let through into debt), and 2
    /// expensive requests at once. A map app posts a route when a user opens one; its images are
    /// then cached.
    public static let defaultClientRate = 300.0
    public static let defaultClientBurst = 3000.0
    public static let defaultClientConcurrency = 2
    /// Per client, requests of any kind: 200 a second, 1,000 at once (a map asking for a route's
    /// icons one by one).
    public static let defaultClientRequestRate = 200.0
    public static let defaultClientRequestBurst = 1000.0
    /// 4,096, or fewer where the process may open fewer files (keeping 64 for everything else).
    public static var defaultMaximumConnections: Int {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return 1024 }
        return max(16, min(4096, Int(clamping: limit.rlim_cur) - 64))
    }
    /// One render thread per core: drawing is CPU-bound.
    public static var defaultRenderThreads: Int { max(1, ProcessInfo.processInfo.activeProcessorCount) }

    public init(
        host: String = "127.0.0.1",
        port: Int = 8080,
        cacheBytes: Int = ServiceConfiguration.defaultCacheMegabytes << 20,
        maximumRouteBytes: Int = ServiceConfiguration.defaultMaximumRouteBytes,
        maximumRouteImages: Int = ServiceConfiguration.defaultMaximumRouteImages,
        maximumRouteMarkers: Int = ServiceConfiguration.defaultMaximumRouteMarkers,
        maximumProgressFixes: Int = ServiceConfiguration.defaultMaximumProgressFixes,
        maximumOfflineTiles: Int = ServiceConfiguration.defaultMaximumOfflineTiles,
        maximumSheetPictures: Int = ServiceConfiguration.defaultMaximumSheetPictures,
        maximumConcurrentRoutes: Int = ServiceConfiguration.defaultMaximumConcurrentRoutes,
        maximumWaitingRoutes: Int = ServiceConfiguration.defaultMaximumWaitingRoutes,
        maximumResponseBytes: Int = ServiceConfiguration.defaultMaximumResponseBytes,
        renderThreads: Int = ServiceConfiguration.defaultRenderThreads,
        routeThreads: Int = 2,
        maximumConnections: Int = ServiceConfiguration.defaultMaximumConnections,
        publicBaseURL: String? = nil,
        idleTimeout: Duration = .seconds(15),
        bodyTimeout: Duration = .seconds(30),
        requestTimeout: Duration = .seconds(60),
        drainTimeout: Duration = .seconds(10),
        corsOrigins: [String] = ["*"],
        logLevel: String = "info",
        signingKeyFile: String? = nil,
        trustedProxies: [String] = [],
        clientRate: Double = ServiceConfiguration.defaultClientRate,
        clientBurst: Double = ServiceConfiguration.defaultClientBurst,
        clientConcurrency: Int = ServiceConfiguration.defaultClientConcurrency,
        clientRequestRate: Double = ServiceConfiguration.defaultClientRequestRate,
        clientRequestBurst: Double = ServiceConfiguration.defaultClientRequestBurst
    ) {
        self.host = host
        self.port = port
        self.cacheBytes = cacheBytes
        self.maximumRouteBytes = maximumRouteBytes
        self.maximumRouteImages = maximumRouteImages
        self.maximumRouteMarkers = maximumRouteMarkers
        self.maximumProgressFixes = maximumProgressFixes
        self.maximumOfflineTiles = maximumOfflineTiles
        self.maximumSheetPictures = maximumSheetPictures
        self.maximumConcurrentRoutes = maximumConcurrentRoutes
        self.maximumWaitingRoutes = maximumWaitingRoutes
        self.maximumResponseBytes = maximumResponseBytes
        self.renderThreads = renderThreads
        self.routeThreads = routeThreads
        self.maximumConnections = maximumConnections
        self.publicBaseURL = publicBaseURL
        self.idleTimeout = idleTimeout
        self.bodyTimeout = bodyTimeout
        self.requestTimeout = requestTimeout
        self.drainTimeout = drainTimeout
        self.corsOrigins = corsOrigins
        self.logLevel = logLevel
        self.signingKeyFile = signingKeyFile
        self.trustedProxies = trustedProxies
        self.clientRate = clientRate
        self.clientBurst = clientBurst
        self.clientConcurrency = clientConcurrency
        self.clientRequestRate = clientRequestRate
        self.clientRequestBurst = clientRequestBurst
    }

    /// Why this configuration cannot run, in one sentence.
    public struct Invalid: Error, Sendable, CustomStringConvertible {
        public let message: String
        public var description: String { message }
    }

    /// Checks every value, so a mistake is reported before anything starts.
    public func validate() throws(Invalid) {
        guard !host.isEmpty else { throw Invalid(message: "the host must not be empty") }
        guard (0...65535).contains(port) else { throw Invalid(message: "the port must be from 0 to 65535, not \(port)") }
        guard cacheBytes >= 0 else { throw Invalid(message: "the cache size must not be negative") }
        guard maximumRouteBytes > 0 else { throw Invalid(message: "the route body limit must be at least 1 byte") }
        guard maximumRouteImages > 0 else { throw Invalid(message: "the route image limit must be at least 1") }
        guard maximumRouteMarkers > 0 else { throw Invalid(message: "the route marker limit must be at least 1") }
        guard (1...100_000_000).contains(maximumOfflineTiles) else {
            throw Invalid(message: "the offline tile limit must be 1 to 100000000")
        }
        guard (1...FixReader.maximumFixes).contains(maximumProgressFixes) else {
            throw Invalid(message: "the progress fix limit must be 1 to \(FixReader.maximumFixes)")
        }
        guard maximumSheetPictures > 0 else { throw Invalid(message: "a sprite sheet must be allowed at least 1 picture") }
        guard maximumConcurrentRoutes > 0 else { throw Invalid(message: "at least one route request must be allowed at a time") }
        guard maximumWaitingRoutes >= 0 else { throw Invalid(message: "the number of waiting route requests must not be negative") }
        guard maximumResponseBytes > 0 else { throw Invalid(message: "the response limit must be at least 1 byte") }
        guard renderThreads > 0 else { throw Invalid(message: "there must be at least one render thread") }
        guard routeThreads > 0 else { throw Invalid(message: "there must be at least one route thread") }
        guard maximumConnections > 0 else { throw Invalid(message: "at least one connection must be allowed") }
        for (name, timeout) in [("idle", idleTimeout), ("body", bodyTimeout), ("request", requestTimeout), ("drain", drainTimeout)] {
            guard timeout > .zero, timeout <= .seconds(86_400) else {
                throw Invalid(message: "the \(name) timeout must be more than 0 and at most a day")
            }
        }
        guard !corsOrigins.isEmpty, corsOrigins.allSatisfy({ $0 == "*" || Self.isOrigin($0) }) else {
            throw Invalid(message: "CORS origins must be * or origins such as https://maps.example.com, not \(corsOrigins.joined(separator: ", "))")
        }
        guard Logger.Level(rawValue: logLevel) != nil else {
            let levels = Logger.Level.allCases.map(\.rawValue).joined(separator: ", ")
            throw Invalid(message: "the log level must be one of \(levels), not \(logLevel)")
        }
        _ = try proxyRanges()
        _ = try signer()
        guard clientRate.isFinite, (0...1_000_000).contains(clientRate) else {
            throw Invalid(message: "the client rate must be from 0 (no limit) to 1000000 images a second, not \(clientRate)")
        }
        guard clientRate == 0 || (clientBurst.isFinite && clientBurst >= 1 && clientBurst <= 1_000_000) else {
            throw Invalid(message: "the client burst must be from 1 to 1000000 images, not \(clientBurst)")
        }
        guard clientRate == 0 || (1...1_000_000).contains(clientConcurrency) else {
            throw Invalid(message: "the client concurrency must be from 1 to 1000000, not \(clientConcurrency)")
        }
        guard clientRequestRate.isFinite, (0...1_000_000).contains(clientRequestRate) else {
            throw Invalid(message: "the client request rate must be from 0 (no limit) to 1000000 a second, not \(clientRequestRate)")
        }
        guard clientRequestRate == 0 || (clientRequestBurst.isFinite && clientRequestBurst >= 1 && clientRequestBurst <= 1_000_000) else {
            throw Invalid(message: "the client request burst must be from 1 to 1000000, not \(clientRequestBurst)")
        }
        if let publicBaseURL {
            guard publicBaseURL.utf8.count <= 256, let url = URL(string: publicBaseURL), ["http", "https"].contains(url.scheme), url.host != nil,
                url.query == nil, url.fragment == nil, !publicBaseURL.hasSuffix("/")
            else {
                throw Invalid(
                    message:
                        "the public URL must look like https://markers.example.com (at most 256 characters, no trailing slash, query or fragment), not \(publicBaseURL)"
                )
            }
        }
    }

    /// The trusted proxies as ranges.
    func proxyRanges() throws(Invalid) -> [AddressRange] {
        var ranges: [AddressRange] = []
        for text in trustedProxies {
            guard let range = AddressRange(text) else {
                throw Invalid(message: "the trusted proxy \"\(text)\" is not an address or a range such as 10.0.0.0/8 or 2001:db8::/32")
            }
            ranges.append(range)
        }
        return ranges
    }

    /// The signer of the key file, read and checked; nil without one.
    func signer() throws(Invalid) -> URLSigner? {
        guard let signingKeyFile else { return nil }
        return try URLSigner(keyFile: FilePath(signingKeyFile))
    }

    /// The per-client limits.
    var clientPolicy: ClientLimiter.Policy {
        clientRate == 0
            ? .off
            : ClientLimiter.Policy(
                rate: clientRate, burst: clientBurst, concurrency: clientConcurrency, requestRate: clientRequestRate, requestBurst: clientRequestBurst
            )
    }

    /// `scheme://host[:port]` with nothing after: what a browser sends as `Origin`.
    private static func isOrigin(_ text: String) -> Bool {
        guard let url = URL(string: text), let scheme = url.scheme, ["http", "https"].contains(scheme), url.host != nil else { return false }
        return url.path.isEmpty && url.query == nil && url.fragment == nil && !text.hasSuffix("/")
    }
}
