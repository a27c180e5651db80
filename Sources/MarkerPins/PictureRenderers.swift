public import MarkerPNG
public import MarkerRender
public import MarkerSpec

/// What one thread draws pins and callouts with: a pool gives each of its threads its own.
public struct PictureRenderers {
    public let pins: PinRenderer
    public let callouts: CalloutRenderer

    public init(compression: PNGEncoder.Compression = PNGEncoder.defaultCompression) throws(RenderError) {
        pins = try PinRenderer(compression: compression)
        callouts = try CalloutRenderer(compression: compression)
    }

    /// Draws `request` as `format`.
    public func render(_ request: PictureRequest, format: ImageFormat = .png) throws(RenderError) -> (image: PictureImage, bytes: [UInt8]) {
        switch request {
        case .pin(let pin): try pins.render(pin, format: format)
        case .callout(let callout): try callouts.render(callout, format: format)
        }
    }

    /// A pool of `threads` threads, each with its own renderers; at most `capacity` jobs waiting.
    public static func pool(
        name: String = "pictures", threads: Int, capacity: Int = .max, compression: PNGEncoder.Compression = PNGEncoder.defaultCompression
    ) async throws -> CPUPool<PictureRenderers> {
        try await CPUPool.start(name: name, threads: threads, capacity: capacity) { try PictureRenderers(compression: compression) }
    }
}
