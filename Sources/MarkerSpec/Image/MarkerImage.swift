/// A drawn marker image: what it shows, its size, where its anchor is and the hash of its PNG.
///
/// The one record of a rendered image: the renderer makes it, the batch writes and reuses it, the
/// service caches it, the manifest and the CLI's `--json` describe it.
public struct MarkerImage: Sendable, Hashable {
    public let request: MarkerRequest
    public let width: Int
    public let height: Int
    /// The dot's centre in pixels: the point that goes on the route.
    public let anchor: PixelPoint
    /// Lowercase hex SHA-256 of the file's bytes.
    public let sha256: String
    /// PNG, or the same drawing as SVG or PDF.
    public let format: ImageFormat
    /// `end-123km-night@2x-3f9a1c2b7d.png`: what it shows and a hash of its bytes, so a new
    /// picture never reuses an old name. Spelled once: a batch asks for it several times per image.
    public let fileName: String

    public init(request: MarkerRequest, width: Int, height: Int, anchor: PixelPoint, sha256: String, format: ImageFormat = .png) {
        self.request = request
        self.width = width
        self.height = height
        self.anchor = anchor
        self.sha256 = sha256
        self.format = format
        fileName = ImageName(request: request, sha256: sha256).fileName(format)
    }

    /// The image of `png`, hashing it.
    public init(request: MarkerRequest, png: [UInt8], width: Int, height: Int, anchor: PixelPoint) {
        self.init(request: request, width: width, height: height, anchor: anchor, sha256: ContentHash.sha256Hex(png))
    }

    /// The image of `bytes` in `format`, hashing them.
    public init(request: MarkerRequest, bytes: [UInt8], format: ImageFormat, width: Int, height: Int, anchor: PixelPoint) {
        self.init(request: request, width: width, height: height, anchor: anchor, sha256: ContentHash.sha256Hex(bytes), format: format)
    }

    /// Its content-hashed name.
    public var name: ImageName { ImageName(request: request, sha256: sha256) }
}
