import Hummingbird
import MarkerSpec

/// Content-hashed bytes (a marker image, a sprite sheet's PNG or JSON) as an HTTP response: strong
/// `ETag` from their SHA-256, and `304` when the client already holds them.
struct ContentResponse {
    /// `/v1/marker.png` may show a different picture once the look changes: cache it briefly.
    static let queryCacheControl = "public, max-age=300"
    /// A content-hashed name never changes its bytes: cache it for good.
    static let namedCacheControl = "public, max-age=31536000, immutable"

    let bytes: ByteBuffer
    let sha256: String
    let contentType: String
    let cacheControl: String
    /// The content-hashed URL to name in `Content-Location`, if the request used another.
    let canonicalPath: String?

    /// A marker image; `canonicalPath`, its `/v1/images/…` URL where the request used another, is
    /// given as `Content-Location`.
    init(image: CachedImage, cacheControl: String, canonicalPath: String?) {
        self.init(
            bytes: image.bytes, sha256: image.image.sha256, contentType: image.image.format.mediaType, cacheControl: cacheControl,
            canonicalPath: canonicalPath)
    }

    init(bytes: ByteBuffer, sha256: String, contentType: String, cacheControl: String = Self.namedCacheControl, canonicalPath: String? = nil) {
        self.bytes = bytes
        self.sha256 = sha256
        self.contentType = contentType
        self.cacheControl = cacheControl
        self.canonicalPath = canonicalPath
    }

    func response(to request: Request) -> Response {
        var headers: HTTPFields = [
            .eTag: EntityTag.strong(sha256),
            .cacheControl: cacheControl,
        ]
        if let canonicalPath {
            headers[.contentLocation] = canonicalPath
        }
        if EntityTag.ifNoneMatch(request.headers[values: .ifNoneMatch], matches: sha256) {
            var notModified = Response(status: .notModified, headers: headers)
            // A 304 has no body; a Content-Length of 0 would misstate the content's size.
            notModified.headers[.contentLength] = nil
            return notModified
        }
        headers[.contentType] = contentType
        return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: bytes))
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
