import Hummingbird
import MarkerQuery

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A failure the client sees as a status and `{"error": "..."}`; for a bad parameter the JSON also
/// has `"parameter"`, and the message always names it.
struct ServiceError: Error, HTTPResponseError, CustomStringConvertible {
    let status: HTTPResponse.Status
    /// One line a person can act on.
    let message: String
    /// The query parameter (or `body`) at fault, if one is.
    let parameter: String?
    /// Seconds after which a `503` may be retried.
    let retryAfter: Int?

    init(_ status: HTTPResponse.Status, _ message: String, parameter: String? = nil, retryAfter: Int? = nil) {
        self.status = status
        self.message = message
        self.parameter = parameter
        self.retryAfter = retryAfter
    }

    /// `400` for a query that cannot be read, naming the parameter at fault.
    init(_ error: QueryError) {
        self.init(.badRequest, error.message, parameter: error.parameter)
    }

    static func notFound(_ message: String) -> ServiceError {
        ServiceError(.notFound, message)
    }

    var description: String { "\(status.code) \(message)" }

    func response(from request: Request, context: some RequestContext) throws -> Response {
        response
    }

    var response: Response {
        var headers: HTTPFields = [.contentType: "application/json; charset=utf-8", .cacheControl: "no-store"]
        if let retryAfter { headers[.retryAfter] = String(retryAfter) }
        return Response(
            status: status, headers: headers,
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: Self.json(message: message, parameter: parameter))))
    }

    private struct Body: Encodable {
        let error: String
        let parameter: String?
    }

    private static func json(message: String, parameter: String?) -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // Encoding two strings cannot fail; the fallback keeps even that case valid JSON.
        let data = (try? encoder.encode(Body(error: message, parameter: parameter))) ?? Data(#"{"error":"error"}"#.utf8)
        return [UInt8](data)
    }
}
