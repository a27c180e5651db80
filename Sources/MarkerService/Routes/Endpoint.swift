import MarkerQuery
import HTTPTypes
import MarkerSpec

/// The service's endpoints: each path and the methods it answers, in one table that the router is
/// built from and that `405 Allow` and CORS preflights are answered from.
struct Endpoint: Sendable {
    /// The router's pattern; `{name}` stands for one path segment.
    let path: String
    /// What the endpoint's handler answers; GET brings HEAD, which the router derives from it.
    let method: HTTPRequest.Method

    /// One per format: `/v1/marker.png`, `/v1/marker.svg`, `/v1/marker.pdf`.
    static let markers = ImageFormat.allCases.map { (format: $0, endpoint: Endpoint(path: "/v1/marker" + $0.fileExtension, method: .get)) }
    /// Pins and callouts by query: `/v1/pin.png`, …; a callout's photo comes by POST.
    static let pins = ImageFormat.allCases.map { (format: $0, endpoint: Endpoint(path: "/v1/pin" + $0.fileExtension, method: .get)) }
    static let callouts = ImageFormat.allCases.flatMap { format in
        [HTTPRequest.Method.get, .post].map { (format: format, endpoint: Endpoint(path: "/v1/callout" + format.fileExtension, method: $0)) }
    }
    /// Content by name: `{segment}` is the file, or in a signed URL (`URLSigner`) the signature
    /// and `{file}` the file (one name for the first segment: the router takes no two at one place).
    static let namedImage = Endpoint(path: "/v1/images/{segment}", method: .get)
    static let icon = Endpoint(path: "/v1/icons/{segment}", method: .get)
    static let sprite = Endpoint(path: "/v1/sprites/{segment}", method: .get)
    static let signedImage = Endpoint(path: "/v1/images/{segment}/{file}", method: .get)
    static let signedIcon = Endpoint(path: "/v1/icons/{segment}/{file}", method: .get)
    static let signedSprite = Endpoint(path: "/v1/sprites/{segment}/{file}", method: .get)
    /// A route's pin or callout by name and query, as route documents hand it out.
    static let picture = Endpoint(path: "/v1/pictures/{segment}", method: .get)
    static let signedPicture = Endpoint(path: "/v1/pictures/{segment}/{file}", method: .get)
    static let routes = Endpoint(path: "/v1/routes", method: .post)
    static let progress = Endpoint(path: "/v1/progress", method: .post)
    static let offlineTiles = Endpoint(path: "/v1/offline/tiles", method: .post)
    static let health = Endpoint(path: "/healthz", method: .get)
    static let metrics = Endpoint(path: "/metrics", method: .get)
    static let all = markers.map(\.endpoint) + pins.map(\.endpoint) + callouts.map(\.endpoint) + [namedImage, icon, sprite, signedImage, signedIcon, signedSprite, picture, signedPicture, routes, progress, offlineTiles, health, metrics]

    /// The methods a request to `path` may use, or nil if no endpoint has that path.
    static func allowedMethods(forPath path: String) -> [HTTPRequest.Method]? {
        let methods = all.filter { $0.matches(path) }.flatMap { $0.method == .get ? [.get, .head] : [$0.method] }
        return methods.isEmpty ? nil : methods
    }

    /// Whether `requestPath` is this endpoint's path, a `{name}` matching any one non-empty segment.
    func matches(_ requestPath: String) -> Bool {
        let pattern = path.split(separator: "/", omittingEmptySubsequences: false)
        let segments = requestPath.split(separator: "/", omittingEmptySubsequences: false)
        guard pattern.count == segments.count else { return false }
        return zip(pattern, segments).allSatisfy { expected, actual in
            expected.hasPrefix("{") ? !actual.isEmpty : expected == actual
        }
    }
}
