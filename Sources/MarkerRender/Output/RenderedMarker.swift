import Crypto
import MarkerPixels

/// A finished marker image: its PNG bytes and everything a map needs to place it.
public struct RenderedMarker: Sendable {
    public let request: MarkerRequest
    public let png: [UInt8]
    public let width: Int
    public let height: Int
    /// The dot's centre in pixels: the point that goes on the route.
    public let anchor: PixelPoint
    /// Lowercase hex SHA-256 of `png`.
    public let sha256: String

    public init(request: MarkerRequest, png: [UInt8], width: Int, height: Int, anchor: PixelPoint) {
        self.request = request
        self.png = png
        self.width = width
        self.height = height
        self.anchor = anchor
        self.sha256 = SHA256.hash(data: png).map { String(format: "%02x", $0) }.joined()
    }

    /// `end-123km-night@2x-3f9a1c2b7d.png`: what it shows and a hash of its bytes, so a new
    /// picture never reuses an old name.
    public var fileName: String { ImageName(request: request, sha256: sha256).fileName }
}

/// A content-hashed image name, made and parsed.
public struct ImageName: Sendable, Hashable {
    /// How many hex digits of the SHA-256 a name carries.
    public static let hashLength = 10

    public let request: MarkerRequest
    public let hashPrefix: String

    public init(request: MarkerRequest, sha256: String) {
        self.request = request
        self.hashPrefix = String(sha256.prefix(Self.hashLength))
    }

    public var stem: String { "\(request.baseName)-\(hashPrefix)" }
    public var fileName: String { stem + ".png" }
}

import Foundation
