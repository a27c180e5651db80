import Hummingbird
import MarkerQuery

/// The door to content asked for by name (named images, icons, sprite sheets): the name from the
/// path, and with a signing key, the signature in front of it checked before anything is looked
/// up or drawn.
struct SignedAccess: Sendable {
    let signer: URLSigner?
    /// Charges a forged URL to its client, and sends the refusal after a delay.
    let limiter: ClientLimiter

    /// The file the request names (its last path segment, percent-decoded), once its signature
    /// verifies for what `name` reads from it; without a signer, the unsigned form only.
    /// - Throws: `400` for a query, `403` for a missing or wrong signature, `404` for a name that
    ///   does not read, or a signature where the service signs nothing.
    ///
    /// With `drawnByQuery` (a route's pins and callouts), the query says what to draw and the
    /// signature covers the file and the query, byte for byte.
    func file(
        _ request: Request, _ context: ServiceRequestContext, _ kind: URLSigner.Kind, drawnByQuery: Bool = false, name: (String) -> Substring?
    ) async throws -> String {
        let query = request.uri.query ?? ""
        // Else the name alone decides the bytes; a query could only make two URLs for one file.
        guard drawnByQuery || query.isEmpty else {
            throw ServiceError(.badRequest, "a content-hashed URL takes no query")
        }
        // `/<kind>/<file>`, or signed, `/<kind>/<signature>/<file>` (`Endpoint`).
        let (signature, segment) =
            context.parameters.get("file").map { (context.parameters.get("segment"), $0) } ?? (nil, context.parameters.get("segment"))
        guard let file = segment.flatMap({ QueryParameters.decode($0[...], plusIsSpace: false) }) else {
            throw ServiceError.notFound("no such file")
        }
        switch (signer, signature) {
        case (nil, nil):
            return file
        case (nil, .some):
            throw ServiceError.notFound("no such file: this service does not sign its URLs; ask for /v1/\(kind.rawValue)/<file>")
        case (.some, nil):
            try await limiter.refuse(
                context.client,
                ServiceError(
                    .forbidden, "this service signs its URLs: ask for \(kind.rawValue) by the signed URL a route document or Content-Location gives"))
        case (let signer?, let signature?):
            guard let named = name(file), signer.verifies(signature, kind, drawnByQuery ? named + "?" + query : named) else {
                try await limiter.refuse(context.client, ServiceError(.forbidden, "the URL's signature does not verify"))
            }
            return file
        }
    }
}
