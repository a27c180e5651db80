import Foundation
import Logging

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
    /// The most markers one `POST /v1/routes` may place; the response holds one feature per marker.
    public var maximumRouteMarkers: Int
    /// Render threads, each with its own renderer (Pango font map and PNG encoder).
    public var renderThreads: Int
    /// The origin of image URLs in route documents, e.g. `https://markers.example.com`, for a
    /// service behind a proxy or CDN; nil = `http://` and the request's `Host`.
    public var publicBaseURL: String?
    /// swift-log level of the service's logger: `info` logs one line per request, `warning` none.
    public var logLevel: String

    public static let defaultCacheMegabytes = 64
    public static let defaultMaximumRouteBytes = 20 << 20
    public static let defaultMaximumRouteImages = 10_000
    public static let defaultMaximumRouteMarkers = 10_000
    /// One render thread per core: drawing is CPU-bound.
    public static var defaultRenderThreads: Int { max(1, ProcessInfo.processInfo.activeProcessorCount) }

    public init(
        host: String = "127.0.0.1",
        port: Int = 8080,
        cacheBytes: Int = ServiceConfiguration.defaultCacheMegabytes << 20,
        maximumRouteBytes: Int = ServiceConfiguration.defaultMaximumRouteBytes,
        maximumRouteImages: Int = ServiceConfiguration.defaultMaximumRouteImages,
        maximumRouteMarkers: Int = ServiceConfiguration.defaultMaximumRouteMarkers,
        renderThreads: Int = ServiceConfiguration.defaultRenderThreads,
        publicBaseURL: String? = nil,
        logLevel: String = "info"
    ) {
        self.host = host
        self.port = port
        self.cacheBytes = cacheBytes
        self.maximumRouteBytes = maximumRouteBytes
        self.maximumRouteImages = maximumRouteImages
        self.maximumRouteMarkers = maximumRouteMarkers
        self.renderThreads = renderThreads
        self.publicBaseURL = publicBaseURL
        self.logLevel = logLevel
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
        guard renderThreads > 0 else { throw Invalid(message: "there must be at least one render thread") }
        guard Logger.Level(rawValue: logLevel) != nil else {
            let levels = Logger.Level.allCases.map(\.rawValue).joined(separator: ", ")
            throw Invalid(message: "the log level must be one of \(levels), not \(logLevel)")
        }
        if let publicBaseURL {
            guard let url = URL(string: publicBaseURL), ["http", "https"].contains(url.scheme), url.host != nil,
                  url.query == nil, url.fragment == nil, !publicBaseURL.hasSuffix("/")
            else {
                throw Invalid(message: "the public URL must look like https://markers.example.com (no trailing slash, query or fragment), not \(publicBaseURL)")
            }
        }
    }
}
