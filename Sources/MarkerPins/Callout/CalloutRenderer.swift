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
            let (surface, context) = try canvas(width: geometry.canvasWidth, height: geometry.canvasHeight)
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
            naturalWidth: { text, size in
                self.layout.setLine(text, font: self.font(size == Metrics.title.size * s ? .semibold : .regular, size))
                return self.layout.extents.logical.width
            },
            paragraphHeight: { text, size, width, lines in
                self.layout.setParagraph(text, font: self.font(size == Metrics.title.size * s ? .semibold : .regular, size), width: width, maximumLines: lines)
                return self.layout.extents.logical.height
            })
    }

    private func paint(_ request: CalloutRequest, geometry g: CalloutLayout, on context: CairoContext) throws(RenderError) {
        let s = g.scale
        let palette = request.theme.palette
        let dark = PinRenderer.border(of: request.theme) == PinRenderer.border(of: .night)
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
            let surface: CairoSurface
            do {
                surface = try CalloutPhoto(bytes).surface(covering: box.width, box.height) { (width, height) throws(RenderError) in
                    try self.photoSurface(width: width, height: height)
                }
            } catch {
                throw RenderError(error.message)
            }
            // Cover-cropped: scaled to cover the box, centred, the rest clipped by the rounded corners.
            let scale = max(box.width / Double(surface.width), box.height / Double(surface.height))
            context.save()
            context.addRoundedRectangle(box, radius: Metrics.photo.cornerRadius * s)
            context.clipToPath()
            context.paint(
                surface, atX: box.x + (box.width - Double(surface.width) * scale) / 2, y: box.y + (box.height - Double(surface.height) * scale) / 2,
                scale: scale)
            context.restore()
        }
        context.setSource(palette.label)
        layout.setParagraph(callout.title, font: font(.semibold, Metrics.title.size * s), width: g.title.width, maximumLines: Metrics.title.lines)
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
            layout.setParagraph(line.text, font: font(.regular, Metrics.line.size * s), width: line.width, maximumLines: Metrics.line.lines)
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

    /// Canvases and their contexts by size, reused (cleared) rather than allocated for each
    /// callout: a large new surface costs its page faults every time. The oldest go past `shadowLimit`.
    private var canvases: [ShadowKey: (surface: CairoSurface, context: CairoContext)] = [:]
    private var canvasOrder: [ShadowKey] = []

    private func canvas(width: Int, height: Int) throws(RenderError) -> (CairoSurface, CairoContext) {
        let key = ShadowKey(width: width, height: height, scale: 0)
        if let kept = canvases[key] { return kept }
        let surface = try CairoSurface(.colour, width: width, height: height)
        let made = (surface, try CairoContext(surface))
        if canvasOrder.count == Self.shadowLimit { canvases[canvasOrder.removeFirst()] = nil }
        canvases[key] = made
        canvasOrder.append(key)
        return made
    }

    /// The surface a photo of a size is decoded into, kept for the next photo of that size; a
    /// few sizes at most (photos of a batch come from a few cameras).
    private var photoSurfaces: [ShadowKey: CairoSurface] = [:]

    private func photoSurface(width: Int, height: Int) throws(RenderError) -> CairoSurface {
        let key = ShadowKey(width: width, height: height, scale: 0)
        if let kept = photoSurfaces[key] { return kept }
        if photoSurfaces.count >= 4 { photoSurfaces.removeAll() }
        let made = try CairoSurface(.colour, width: width, height: height)
        photoSurfaces[key] = made
        return made
    }

    /// Shadow masks by canvas size and scale: a callout's shadow depends on nothing else, and
    /// callouts of a batch come in a few sizes. The oldest are let go past `shadowLimit`.
    private var shadows: [ShadowKey: CairoSurface] = [:]
    private var shadowOrder: [ShadowKey] = []
    private static let shadowLimit = 64

    private struct ShadowKey: Hashable {
        let width: Int
        let height: Int
        let scale: Double
    }

    private func shadowMask(_ g: CalloutLayout) throws(RenderError) -> CairoSurface {
        let key = ShadowKey(width: g.canvasWidth, height: g.canvasHeight, scale: g.scale)
        if let kept = shadows[key] { return kept }
        let made = try Self.shadowMask(g)
        if shadowOrder.count == Self.shadowLimit { shadows[shadowOrder.removeFirst()] = nil }
        shadows[key] = made
        shadowOrder.append(key)
        return made
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
