public import MarkerSpec

/// A marker drawn and encoded: its image record and the PNG bytes it describes.
public struct RenderedMarker: Sendable {
    public let image: MarkerImage
    public let png: [UInt8]

    /// Pairs `png` with its record, hashing the bytes.
    public init(request: MarkerRequest, png: [UInt8], width: Int, height: Int, anchor: PixelPoint) {
        self.image = MarkerImage(request: request, png: png, width: width, height: height, anchor: anchor)
        self.png = png
    }
}
