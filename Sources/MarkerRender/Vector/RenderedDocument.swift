public import MarkerSpec

/// A marker drawn as an SVG or PDF document: its image record and the document's bytes.
public struct RenderedDocument: Sendable {
    public let image: MarkerImage
    public let bytes: [UInt8]
}

extension MarkerRenderer {
    /// `request` as the file `format` writes: the PNG of `render(_:)`, or the same drawing as a
    /// document from `renderDocument(_:format:)`. What the CLI, the service and the targets write.
    public func renderFile(_ request: MarkerRequest, format: ImageFormat) throws(RenderError) -> (image: MarkerImage, bytes: [UInt8]) {
        guard format != .png else {
            let rendered = try render(request)
            return (rendered.image, rendered.png)
        }
        let document = try renderDocument(request, format: format)
        return (document.image, document.bytes)
    }

    /// `request` as an SVG or PDF document: the PNG's drawing, on Cairo's vector surface instead of
    /// pixels, the same size (pixels in SVG, points in PDF) with the anchor at the same place.
    ///
    /// Pill, border, dot, dividers and icons are paths; the text is glyph outlines (Cairo writes
    /// SVG glyphs as paths and embeds a subset of Inter in PDF), so it looks the same without the
    /// font installed; the shadow is the PNG's own blurred mask, embedded as an image, since an
    /// SVG filter blur differs from renderer to renderer. The bytes depend only on the request.
    public func renderDocument(_ request: MarkerRequest, format: ImageFormat) throws(RenderError) -> RenderedDocument {
        guard format != .png else { throw RenderError("a PNG is drawn by render(_:), not as a document") }
        let (_, labels, geometry) = try laidOut(request)
        let document = try VectorDocument(format, width: geometry.canvasWidth, height: geometry.canvasHeight)
        let shadow = try shadowMask(for: geometry)
        do {
            let context = try CairoContext(document)
            let painter = MarkerPainter(layout: geometry, palette: request.theme.palette)
            try painter.paint(on: context, shadow: shadow, clearing: false) { labels[$0].show(in: context) }
        }
        let bytes = try document.finish()
        let image = MarkerImage(
            request: request, bytes: bytes, format: format, width: geometry.canvasWidth, height: geometry.canvasHeight,
            anchor: geometry.anchor)
        return RenderedDocument(image: image, bytes: bytes)
    }
}
