import Hummingbird
import MarkerSpec

/// A marker image as an HTTP response: PNG, strong `ETag` from its SHA-256, and `304` when the
/// client already holds it.
struct ImageResponse {
    /// `/v1/marker.png` may show a different picture once the look changes: cache it briefly.
    static let queryCacheControl = "public, max-age=300"
    /// A content-hashed name never changes its bytes: cache it for good.
    static let namedCacheControl = "public, max-age=31536000, immutable"

    let image: CachedImage
    let cacheControl: String
    /// Whether to name the image's content-hashed URL in `Content-Location`.
    let namesCanonicalURL: Bool

    /// Where the image lives for good: `/v1/images/<name>.png`.
    static func path(of image: CachedImage) -> String { "/v1/images/\(image.fileName)" }

    func response(to request: Request) -> Response {
        var headers: HTTPFields = [
            .eTag: EntityTag.strong(image.image.sha256),
            .cacheControl: cacheControl,
        ]
        if namesCanonicalURL {
            headers[.contentLocation] = Self.path(of: image)
        }
        if EntityTag.ifNoneMatch(request.headers[values: .ifNoneMatch], matches: image.image.sha256) {
            var notModified = Response(status: .notModified, headers: headers)
            // A 304 has no body; a Content-Length of 0 would misstate the image's size.
            notModified.headers[.contentLength] = nil
            return notModified
        }
        headers[.contentType] = "image/png"
        return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: image.png))
    }
}

/// Entity tags (RFC 9110 §8.8.3) as the service writes and compares them.
enum EntityTag {
    /// `"<sha256>"`: the tag is the content hash, so every instance gives the same tag for the same bytes.
    static func strong(_ sha256: String) -> String { "\"\(sha256)\"" }

    /// Whether `If-None-Match` (possibly several fields, each a comma-separated list) names the
    /// image: `*`, or its tag with or without `W/` (the comparison for `If-None-Match` is weak).
    static func ifNoneMatch(_ fields: [String], matches sha256: String) -> Bool {
        let tag = strong(sha256)
        for field in fields {
            for member in field.split(separator: ",") {
                let candidate = withoutOptionalWhitespace(member)
                if candidate == "*" { return true }
                let opaque = candidate.hasPrefix("W/") ? candidate.dropFirst(2) : candidate
                if opaque == tag { return true }
            }
        }
        return false
    }

    /// `text` without the spaces and tabs (RFC 9110's optional whitespace) around it.
    private static func withoutOptionalWhitespace(_ text: Substring) -> Substring {
        let isWhitespace = { (character: Character) in character == " " || character == "\t" }
        guard let first = text.firstIndex(where: { !isWhitespace($0) }), let last = text.lastIndex(where: { !isWhitespace($0) }) else {
            return ""
        }
        return text[first...last]
    }
}
