public import MarkerPNG
public import MarkerPixels
public import MarkerRender
public import MarkerSpec

/// Draws callouts (MARKER.md, "Pins and callouts"): owns a text layout and a PNG encoder. Not
/// thread-safe; make one per thread.
public final class CalloutRenderer {
    private let fontMap: FontMap
    private let textContext: TextContext
    private let layout: TextLayout
    private let encoder: PNGEncoder

    private typealias Metrics = CalloutLayout.Metrics

    public init(compression: PNGEncoder.Compression = PNGEncoder.defaultCompression) throws(RenderError) {
        fontMap = try FontMap()
        textContext = try TextContext(fontMap: fontMap)
        layout = try TextLayout(context: textContext)
        do { encoder = try PNGEncoder(compression: compression) } catch { throw RenderError(error) }
        for weight in [FontDescription.Weight.regular, .semibold] {
            let probe = FontDescription(family: MarkerRenderer.fontFamily, weight: weight, absoluteSize: 12)
            guard let face = textContext.resolvedFace(for: probe), face.family == MarkerRenderer.fontFamily else {
                throw RenderError("font \(MarkerRenderer.fontFamily) is not installed; install the Debian package \(MarkerRenderer.fontPackage)")
            }
        }
    }

    /// Draws `request` as straight-alpha pixels, with the anchor (the tail's tip) in pixels.
    public func draw(_ request: CalloutRequest) throws(RenderError) -> (image: RGBAImage, anchor: PixelPoint) {
        let geometry = lay(request)
        let surface = try CairoSurface(.colour, width: geometry.canvasWidth, height: geometry.canvasHeight)
        try paint(request, geometry: geometry, on: try CairoContext(surface))
        return (surface.straightRGBA(), geometry.anchor)
    }

    /// `request` as the file `format` writes, with its content-hashed name.
    public func render(_ request: CalloutRequest, format: ImageFormat = .png) throws(RenderError) -> (image: PictureImage, bytes: [UInt8]) {
        let geometry = lay(request)
        let bytes: [UInt8]
        if format == .png {
            let surface = try canvases.surface(for: Size(width: geometry.canvasWidth, height: geometry.canvasHeight)) { () throws(RenderError) in
                try CairoSurface(.colour, width: geometry.canvasWidth, height: geometry.canvasHeight)
            }
            let context = try CairoContext(surface)
            context.clear()
            try paint(request, geometry: geometry, on: context)
            bytes = try encoder.encode(surface)
        } else {
            let document = try VectorDocument(format, width: geometry.canvasWidth, height: geometry.canvasHeight)
            do { try paint(request, geometry: geometry, on: try CairoContext(document)) }
            bytes = try document.finish()
        }
        let image = PictureImage(
            baseName: request.baseName, scale: request.scale, bytes: bytes, format: format, width: geometry.canvasWidth,
            height: geometry.canvasHeight, anchor: geometry.anchor)
        return (image, bytes)
    }

    /// The callout's layout, its text measured with this renderer's fonts.
    func lay(_ request: CalloutRequest) -> CalloutLayout {
        let s = request.scale.factor
        let badgeWidth = request.callout.badge.map { badge -> Double in
            layout.setLine(badge.text, font: font(.semibold, Metrics.badge.size * s))
            return layout.extents.logical.width
        }
        return CalloutLayout(
            request.callout, scale: request.scale, badgeTextWidth: badgeWidth,
            naturalWidth: { text, paragraph in
                self.layout.setLine(text, font: self.font(paragraph, scale: s))
                return self.layout.extents.logical.width
            },
            paragraphHeight: { text, paragraph, width in
                self.setParagraph(text, paragraph, width: width, scale: s)
                return self.layout.extents.logical.height
            })
    }

    /// Sets `text` as `paragraph` wraps and cuts it, `width` pixels wide.
    private func setParagraph(_ text: String, _ paragraph: CalloutLayout.Paragraph, width: Double, scale: Double) {
        layout.setParagraph(text, font: font(paragraph, scale: scale), width: width, maximumLines: paragraph.style.lines)
    }

    private func font(_ paragraph: CalloutLayout.Paragraph, scale: Double) -> FontDescription {
        font(paragraph.style.semibold ? .semibold : .regular, paragraph.style.size * scale)
    }

    private func paint(_ request: CalloutRequest, geometry g: CalloutLayout, on context: CairoContext) throws(RenderError) {
        let s = g.scale
        let palette = request.theme.palette
        let dark = palette.isDark
        context.paint(Colour(rgb: 0, 0, 0, alpha: Metrics.shadow.alpha), maskedBy: try shadowMask(g))

        g.addOutline(to: context)
        context.setSource(palette.pillFill.withAlpha(dark ? 0.95 : 0.96))
        context.fill()
        // The border inside the outline, unbroken round the box and the tail.
        context.save()
        g.addOutline(to: context)
        context.clipToPath()
        g.addOutline(to: context)
        context.setSource(palette.pillBorder)
        context.stroke(width: 2 * g.borderWidth)
        context.restore()

        let callout = request.callout
        if let bytes = callout.photo, let box = g.photo {
            let cover: CalloutPhoto.Cover
            do {
                cover = try CalloutPhoto(bytes).cover(box.width, box.height) { (width, height) throws(RenderError) in
                    try self.photoSurfaces.surface(for: Size(width: width, height: height)) { () throws(RenderError) in
                        try CairoSurface(.colour, width: width, height: height)
                    }
                }
            } catch {
                throw RenderError(error.message)
            }
            // Cover-cropped: scaled to cover the box, centred, the rest clipped by the rounded corners.
            context.save()
            context.addRoundedRectangle(box, radius: Metrics.photo.cornerRadius * s)
            context.clipToPath()
            context.paint(cover.surface, atX: box.x + cover.x, y: box.y + cover.y, scale: cover.scale)
            context.restore()
        }
        context.setSource(palette.label)
        setParagraph(callout.title, .title, width: g.title.width, scale: s)
        layout.show(in: context, atX: g.title.x, y: g.title.y)
        if let badge = callout.badge, let box = g.badge {
            context.setSource(badge.colour)
            context.addRoundedRectangle(box, radius: box.height / 2)
            context.fill()
            context.setSource(Colour(rgb: 255, 255, 255))
            layout.setParagraph(badge.text, font: font(.semibold, Metrics.badge.size * s), width: box.width - 2 * Metrics.badge.padding * s, maximumLines: 1)
            let logical = layout.extents.logical
            layout.show(in: context, atX: box.x + (box.width - logical.width) / 2, y: box.y + (box.height - logical.height) / 2)
        }
        context.setSource(dark ? Colour(rgb: 255, 255, 255, alpha: 0.75) : Colour(rgb: 90, 90, 90))
        for line in g.lines {
            setParagraph(line.text, .line, width: line.width, scale: s)
            if let icon = line.icon {
                // Centred on the first line of its text.
                let first = layout.firstLineHeight
                context.save()
                context.translate(x: g.lineIconX, y: line.y + (first - g.lineIconSize) / 2)
                context.scale(by: g.lineIconSize / 24)
                for shape in icon.shapes { shape.draw(on: context) }
                context.restore()
            }
            layout.show(in: context, atX: line.x, y: line.y)
        }
        try context.checkStatus("drawing a callout")
    }

    /// A canvas, a photo or a shadow by its size in pixels (and for a shadow, the scale it was cast at).
    private struct Size: Hashable {
        let width: Int
        let height: Int
        var scale = 0.0
    }

    /// Canvases by size, reused (cleared) rather than allocated for each callout: a large new
    /// surface costs its page faults every time.
    private var canvases = SurfaceCache<Size>(limit: 64)
    /// The surfaces photos are decoded into, by size: photos of a batch come from a few cameras.
    private var photoSurfaces = SurfaceCache<Size>(limit: 4)
    /// Shadow masks: a callout's shadow depends on nothing but its canvas and scale, and callouts
    /// of a batch come in a few sizes.
    private var shadows = SurfaceCache<Size>(limit: 64)

    private func shadowMask(_ g: CalloutLayout) throws(RenderError) -> CairoSurface {
        try shadows.surface(for: Size(width: g.canvasWidth, height: g.canvasHeight, scale: g.scale)) { () throws(RenderError) in try Self.shadowMask(g) }
    }

    /// The shadow's alpha: the outline 2pt down, blurred, and not under the bubble itself.
    static func shadowMask(_ g: CalloutLayout) throws(RenderError) -> CairoSurface {
        try ShadowCast.mask(
            width: g.canvasWidth, height: g.canvasHeight, offsetY: g.shadowOffsetY, sigma: g.shadowSigma, radius: g.shadowRadius
        ) { g.addOutline(to: $0) }
    }

    /// Fonts by weight and pixel size, made once.
    private var fonts: [String: FontDescription] = [:]

    private func font(_ weight: FontDescription.Weight, _ size: Double) -> FontDescription {
        let key = "\(weight)-\(size)"
        if let kept = fonts[key] { return kept }
        let made = FontDescription(family: MarkerRenderer.fontFamily, weight: weight, absoluteSize: size)
        fonts[key] = made
        return made
    }
}
