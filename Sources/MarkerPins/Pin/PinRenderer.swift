public import MarkerPNG
public import MarkerPixels
public import MarkerRender
public import MarkerSpec

/// Draws pins (MARKER.md, "Pins and callouts"): owns a text layout for pins that show characters
/// and a PNG encoder. Not thread-safe; make one per thread.
public final class PinRenderer {
    private let fontMap: FontMap
    private let textContext: TextContext
    private let layout: TextLayout
    private let encoder: PNGEncoder
    /// The text font at each scale, by the scale's halves.
    private var fonts: [Int: FontDescription] = [:]
    /// The shadow's mask at each scale: every pin casts the same shadow.
    private var shadows = SurfaceCache<MarkerScale>(limit: MarkerScale.all.count)
    /// A pin's shadow, teardrop and border by colour, theme and scale: pins of one category share
    /// them, and only their icons differ. Each pin is its body copied and its icon painted on it,
    /// the very operations of painting it whole, in the same order.
    private var bodies = SurfaceCache<Body>(limit: 64)
    /// The canvas each PNG is drawn on, by scale, reused.
    private var canvases = SurfaceCache<MarkerScale>(limit: MarkerScale.all.count)

    private struct Body: Hashable {
        let colour: Colour
        let theme: Theme
        let scale: MarkerScale
    }

    public init(compression: PNGEncoder.Compression = PNGEncoder.defaultCompression) throws(RenderError) {
        fontMap = try FontMap()
        textContext = try TextContext(fontMap: fontMap)
        layout = try TextLayout(context: textContext)
        do { encoder = try PNGEncoder(compression: compression) } catch { throw RenderError(error) }
        // Pango silently substitutes a missing face; MARKER.md wants a clear error instead.
        let probe = FontDescription(family: MarkerRenderer.fontFamily, weight: .semibold, absoluteSize: Metrics.textSize)
        guard let face = textContext.resolvedFace(for: probe), face.family == MarkerRenderer.fontFamily, face.weight == 600 else {
            throw RenderError(
                "font \(MarkerRenderer.fontFamily) Semi Bold is not installed; install the Debian package \(MarkerRenderer.fontPackage)")
        }
    }

    private typealias Metrics = PinGeometry.Metrics

    /// Parses a user's SVG icon as drawing would, to refuse one librsvg cannot read before anything is written.
    public static func check(svgIcon document: [UInt8]) throws(RenderError) {
        _ = try SVGDocument(document)
    }

    /// Draws `request` as straight-alpha pixels, with the anchor (the tip) in pixels.
    public func draw(_ request: PinRequest) throws(RenderError) -> (image: RGBAImage, anchor: PixelPoint) {
        let geometry = PinGeometry(scale: request.scale)
        let surface = try drawSurface(request, geometry: geometry)
        return (surface.straightRGBA(), geometry.anchor)
    }

    /// `request` as the file `format` writes: a PNG, or the same drawing as an SVG or PDF document
    /// (paths and glyph outlines, the shadow an embedded image), with its content-hashed name.
    public func render(_ request: PinRequest, format: ImageFormat = .png) throws(RenderError) -> (image: PictureImage, bytes: [UInt8]) {
        let geometry = PinGeometry(scale: request.scale)
        let bytes: [UInt8]
        if format == .png {
            let body = try bodies.surface(for: Body(colour: request.pin.colour, theme: request.theme, scale: request.scale)) { () throws(RenderError) in
                let surface = try CairoSurface(.colour, width: geometry.canvasWidth, height: geometry.canvasHeight)
                try paintBody(request, geometry: geometry, on: try CairoContext(surface))
                return surface
            }
            let canvas = try canvases.surface(for: request.scale) { () throws(RenderError) in
                try CairoSurface(.colour, width: geometry.canvasWidth, height: geometry.canvasHeight)
            }
            try canvas.copyPixels(from: body)
            try paintFace(request, geometry: geometry, on: try CairoContext(canvas))
            bytes = try encoder.encode(canvas)
        } else {
            let document = try VectorDocument(format, width: geometry.canvasWidth, height: geometry.canvasHeight)
            do {
                let context = try CairoContext(document)
                try paint(request, geometry: geometry, on: context)
            }
            bytes = try document.finish()
        }
        let image = PictureImage(
            baseName: request.baseName, scale: request.scale, bytes: bytes, format: format, width: geometry.canvasWidth, height: geometry.canvasHeight, anchor: geometry.anchor)
        return (image, bytes)
    }

    private func drawSurface(_ request: PinRequest, geometry: PinGeometry) throws(RenderError) -> CairoSurface {
        let surface = try CairoSurface(.colour, width: geometry.canvasWidth, height: geometry.canvasHeight)
        let context = try CairoContext(surface)
        try paint(request, geometry: geometry, on: context)
        return surface
    }

    /// Paints the shadow, the teardrop and its border, and the icon or text, onto a clear `context`.
    private func paint(_ request: PinRequest, geometry: PinGeometry, on context: CairoContext) throws(RenderError) {
        try paintBody(request, geometry: geometry, on: context)
        try paintFace(request, geometry: geometry, on: context)
    }

    /// Paints the shadow, the teardrop and its border onto a clear `context`.
    private func paintBody(_ request: PinRequest, geometry: PinGeometry, on context: CairoContext) throws(RenderError) {
        let palette = request.theme.palette
        context.paint(palette.shadow, maskedBy: try shadowMask(geometry, scale: request.scale))

        Self.addTeardrop(geometry, to: context)
        context.setSource(request.pin.colour)
        context.fill()
        // The border lies inside the outline, so that the tip of what is drawn is the anchor.
        context.save()
        Self.addTeardrop(geometry, to: context)
        context.clipToPath()
        Self.addTeardrop(geometry, to: context)
        context.setSource(Self.border(of: request.theme))
        context.stroke(width: 2 * geometry.borderWidth)
        context.restore()
        try context.checkStatus("drawing a pin")
    }

    /// Paints the icon or text, in white, over the pin's body.
    private func paintFace(_ request: PinRequest, geometry: PinGeometry, on context: CairoContext) throws(RenderError) {
        context.setSource(Colour(rgb: 255, 255, 255))
        switch request.pin.face {
        case .icon(let icon):
            let (unit, x, y) = geometry.iconTransform
            context.save()
            context.translate(x: x, y: y)
            context.scale(by: unit)
            for shape in icon.shapes { shape.draw(on: context) }
            context.restore()
        case .svg(_, let document):
            // Monochrome: the icon's shape, whatever its colours, as a mask filled in white.
            let (unit, x, y) = geometry.iconTransform
            let mask = try CairoSurface(.alpha, width: geometry.canvasWidth, height: geometry.canvasHeight)
            try SVGDocument(document).draw(on: try CairoContext(mask), in: Rect(x: x, y: y, width: 24 * unit, height: 24 * unit))
            context.paint(Colour(rgb: 255, 255, 255), maskedBy: mask)
        case .text(let text):
            layout.setRuns([TextLayout.Run(text: text, font: font(scale: request.scale), rise: 0)])
            var ink = layout.extents.ink
            // Three wide characters are set smaller, to stay inside the border with room to spare.
            let room = Metrics.textWidth * geometry.scale
            if ink.width > room {
                let size = Metrics.textSize * geometry.scale * room / ink.width
                layout.setRuns([TextLayout.Run(text: text, font: FontDescription(family: MarkerRenderer.fontFamily, weight: .semibold, absoluteSize: size), rise: 0)])
                ink = layout.extents.ink
            }
            layout.show(in: context, atX: geometry.centreX - (ink.x + ink.width / 2), y: geometry.centreY - (ink.y + ink.height / 2))
        }
        try context.checkStatus("drawing a pin")
    }

    /// MARKER.md's border: white at 0.9 by day; by night (a theme whose pill is dark) the colour
    /// stays and the border darkens to black at 0.35.
    static func border(of theme: Theme) -> Colour {
        theme.palette.isDark ? Colour(rgb: 0, 0, 0, alpha: 0.35) : Colour(rgb: 255, 255, 255, alpha: 0.9)
    }

    /// The teardrop: the circle, and two tangents from its lower sides to the tip.
    static func addTeardrop(_ g: PinGeometry, to context: CairoContext) {
        let down = Double.pi / 2
        let tangent = Metrics.tangentAngle
        context.newSubPath()
        context.move(toX: g.tipX, y: g.tipY)
        // From the tip up to the circle's lower right, round over the top to its lower left, and back.
        context.arc(centreX: g.centreX, centreY: g.centreY, radius: g.radius, from: down - tangent, to: down + tangent - 2 * .pi, anticlockwise: true)
        context.closePath()
    }

    private func shadowMask(_ geometry: PinGeometry, scale: MarkerScale) throws(RenderError) -> CairoSurface {
        try shadows.surface(for: scale) { () throws(RenderError) in try Self.shadowMask(geometry) }
    }

    /// The shadow's alpha: the teardrop 1pt down, blurred, and not under the pin itself.
    static func shadowMask(_ g: PinGeometry) throws(RenderError) -> CairoSurface {
        try ShadowCast.mask(
            width: g.canvasWidth, height: g.canvasHeight, offsetY: g.shadowOffsetY, sigma: g.shadowSigma, radius: g.shadowRadius
        ) { addTeardrop(g, to: $0) }
    }

    private func font(scale: MarkerScale) -> FontDescription {
        if let kept = fonts[scale.halves] { return kept }
        let made = FontDescription(family: MarkerRenderer.fontFamily, weight: .semibold, absoluteSize: Metrics.textSize * scale.factor)
        fonts[scale.halves] = made
        return made
    }
}
