public import MarkerPNG
import CPangoCairo
public import MarkerPixels
public import MarkerSpec

/// Draws markers: owns a font map, a label shaper and a PNG encoder. Not thread-safe; make one per thread.
public final class MarkerRenderer {
    /// The font MARKER.md asks for, looked up by name.
    public static let fontFamily = "Inter"
    public static let fontPackage = "fonts-inter"

    private let fontMap: FontMap
    private let textContext: TextContext
    private let layout: TextLayout
    private let numberFont: FontDescription
    private let unitFont: FontDescription
    private let encoder: PNGEncoder
    private var backgrounds: MarkerBackground
    private let shaper: LabelShaper
    private let method: DrawingMethod
    /// Canvases and their contexts by size, reused: a batch's labels come in a few dozen widths.
    private var canvases: [Canvas: (surface: CairoSurface, context: CairoContext)] = [:]
    /// From the baseline to the middle of the digits, in points; the same for every label.
    private let digitMiddle: Double

    public convenience init(
        compression: PNGEncoder.Compression = PNGEncoder.defaultCompression, pngFilter: PNGEncoder.Filter = PNGEncoder.defaultFilter
    ) throws(RenderError) {
        try self.init(fontFamily: Self.fontFamily, compression: compression, pngFilter: pngFilter)
    }

    /// A renderer of a pool whose renderers paint each background and shadow mask once between them.
    package convenience init(
        compression: PNGEncoder.Compression = PNGEncoder.defaultCompression, pngFilter: PNGEncoder.Filter = PNGEncoder.defaultFilter,
        sharing drawing: SharedDrawing
    ) throws(RenderError) {
        try self.init(fontFamily: Self.fontFamily, compression: compression, pngFilter: pngFilter, sharing: drawing)
    }

    /// A renderer that draws as `method` says: the benchmark's naive baseline draws every
    /// marker from scratch, as a straightforward program would.
    package convenience init(method: DrawingMethod) throws(RenderError) {
        try self.init(fontFamily: Self.fontFamily, method: method)
    }

    /// How a marker is drawn. `reusing` is what markerpaint draws with: labels shaped with fonts
    /// kept per scale, over a background kept per canvas and palette. `fromScratch` lays out each
    /// label with Pango and paints every shape; tests hold the two to the same pixels.
    package enum DrawingMethod: Sendable {
        case reusing, fromScratch
    }

    init(
        fontFamily: String, compression: PNGEncoder.Compression = PNGEncoder.defaultCompression,
        pngFilter: PNGEncoder.Filter = PNGEncoder.defaultFilter,
        method: DrawingMethod = .reusing, sharing drawing: SharedDrawing = SharedDrawing()
    ) throws(RenderError) {
        self.method = method
        backgrounds = MarkerBackground(sharing: drawing)
        fontMap = try FontMap()
        textContext = try TextContext(fontMap: fontMap)
        numberFont = FontDescription(family: fontFamily, weight: PANGO_WEIGHT_MEDIUM, absoluteSize: MarkerMetrics.numberSize)
        unitFont = FontDescription(family: fontFamily, weight: PANGO_WEIGHT_MEDIUM, absoluteSize: MarkerMetrics.unitSize)
        // Pango silently substitutes a missing family; MARKER.md wants a clear error instead.
        let face = textContext.resolvedFace(for: numberFont)
        guard let face, face.family == fontFamily, face.weight == Int(PANGO_WEIGHT_MEDIUM.rawValue) else {
            let found = face.map { "Pango offers \($0.family) weight \($0.weight) instead" } ?? "no font found"
            throw RenderError("font \(fontFamily) Medium is not installed (\(found)); install the Debian package \(Self.fontPackage)")
        }
        layout = try TextLayout(context: textContext)
        shaper = try LabelShaper(layout: layout, numberFont: numberFont, unitFont: unitFont)
        do { encoder = try PNGEncoder(compression: compression, filter: pngFilter) } catch { throw RenderError(error) }
        layout.setRuns([.init(text: "0123456789", font: numberFont, rise: 0)])
        let ink = layout.extents.ink
        digitMiddle = ink.y + ink.height / 2 - layout.baseline
    }

    /// Draws `request` as straight-alpha pixels, with the anchor (dot centre) in pixels.
    public func draw(_ request: MarkerRequest) throws(RenderError) -> (image: RGBAImage, anchor: PixelPoint) {
        let (surface, geometry) = try drawSurface(request)
        return (surface.straightRGBA(), geometry.anchor)
    }

    /// The naive path the benchmark measures against: the same drawing, then Cairo's own PNG
    /// writer (libpng's filter search and zlib) straight into the file. Returns the time of each step.
    @discardableResult
    public func writeWithCairo(_ request: MarkerRequest, to path: String) throws(RenderError) -> (draw: Duration, encodeAndWrite: Duration) {
        let clock = ContinuousClock()
        let start = clock.now
        let (surface, _) = try drawSurface(request)
        let drawn = clock.now
        try CairoStatus.check(cairo_surface_write_to_png(surface.pointer, path), "writing \(path) with Cairo")
        return (drawn - start, clock.now - drawn)
    }

    /// Draws `request` onto a new premultiplied ARGB32 surface.
    func drawSurface(_ request: MarkerRequest) throws(RenderError) -> (CairoSurface, MarkerLayout) {
        let (segments, labels, geometry) = try laidOut(request)
        let (surface, context) = try canvas(width: geometry.canvasWidth, height: geometry.canvasHeight)
        let palette = request.theme.palette
        let painter = MarkerPainter(layout: geometry, palette: palette)
        switch method {
        case .reusing:
            try surface.copyPixels(from: try backgrounds.surface(for: geometry, palette: palette))
            try painter.paintForeground(on: context) { labels[$0].show(in: context) }
        case .fromScratch:
            // Measuring left the last label in the layout: it is drawn as it is, as a program that
            // lays out a label once, measures it and draws it would; a combined marker's others are set again.
            var inLayout = segments.count - 1
            try painter.paint(on: context, shadow: try backgrounds.shadowMask(for: geometry)) { index in
                if index != inLayout {
                    self.setLabel(segments[index].number, unit: request.marker.unit, scale: request.scale.factor)
                    inLayout = index
                }
                self.layout.show(in: context, atX: 0, y: 0)
            }
        }
        return (surface, geometry)
    }

    /// A canvas size.
    private struct Canvas: Hashable {
        let width: Int
        let height: Int
    }

    /// As many canvases as backgrounds are kept; past that, all are let go and made again as needed.
    private static let canvasLimit = MarkerBackground.limit

    /// A canvas of the size asked for; the background copied over it, or the painter, clears it.
    private func canvas(width: Int, height: Int) throws(RenderError) -> (CairoSurface, CairoContext) {
        let size = Canvas(width: width, height: height)
        if let kept = canvases[size] { return kept }
        if canvases.count >= Self.canvasLimit { canvases.removeAll(keepingCapacity: true) }
        let surface = try CairoSurface(format: CAIRO_FORMAT_ARGB32, width: width, height: height)
        let made = (surface, try CairoContext(surface))
        canvases[size] = made
        return made
    }

    /// Measures each label and works out where everything goes.
    func layout(for request: MarkerRequest) throws(RenderError) -> MarkerLayout {
        try laidOut(request).geometry
    }

    /// `request`'s segments, their labels set for drawing, and where everything goes: what drawing it takes, as a PNG or a document.
    func laidOut(_ request: MarkerRequest) throws(RenderError) -> (segments: [LabelSegment], labels: [ShapedLabel], geometry: MarkerLayout) {
        let segments = LabelSegment.segments(of: request.marker)
        let labels = try labels(of: segments, unit: request.marker.unit, scale: request.scale)
        return (segments, labels, MarkerLayout(segments: segments, labels: labels.map(measure), scale: request.scale))
    }

    /// The logical width of `number` and `unit` set as a label at `scale`, in Pango units.
    func labelWidth(_ number: String, unit: Marker.Unit, scale: MarkerScale) throws(RenderError) -> Int32 {
        try shaper.width(number: number, unit: unit, scale: scale.factor)
    }

    /// Each segment's label set in glyphs for drawing at `scale`, as `method` sets it.
    func labels(of segments: [LabelSegment], unit: Marker.Unit, scale: MarkerScale) throws(RenderError) -> [ShapedLabel] {
        var labels: [ShapedLabel] = []
        labels.reserveCapacity(segments.count)
        for segment in segments {
            switch method {
            case .reusing:
                labels.append(try shaper.shape(number: segment.number, unit: unit, scale: scale.factor))
            case .fromScratch:
                setLabel(segment.number, unit: unit, scale: scale.factor)
                labels.append(ShapedLabel(layout: layout))
            }
        }
        return labels
    }

    /// Does now what the first markers of each scale, unit and theme would otherwise wait for:
    /// loads every scale's fonts, shapes the whole pair table, and paints the backgrounds wider
    /// ones are stitched from. A service does this before it listens, so that its first requests
    /// are as quick as the rest.
    package func warmUp(themes: [Theme] = Theme.builtIn) throws(RenderError) {
        for scale in MarkerRequest.scales {
            for unit in Marker.Unit.allCases { try shaper.fillTable(scale: scale.factor, unit: unit) }
            let reference = MarkerLayout(backgroundWithPillWidth: BackgroundStitch(scale: scale).referencePillWidth, scale: scale)
            for theme in themes { _ = try backgrounds.surface(for: reference, palette: theme.palette) }
        }
    }

    /// Pair-table slots shaped so far, for tests.
    var pairsShaped: Int { shaper.pairsShaped }

    /// The shadow mask for `geometry`, from the cache or made now.
    func shadowMask(for geometry: MarkerLayout) throws(RenderError) -> CairoSurface { try backgrounds.shadowMask(for: geometry) }

    /// The background (shadow, pill, dot) of `geometry` in `palette`, from the cache or painted now.
    func background(for geometry: MarkerLayout, palette: Palette) throws(RenderError) -> CairoSurface {
        try backgrounds.surface(for: geometry, palette: palette)
    }

    func measure(_ label: ShapedLabel) -> LabelMeasure {
        let unit = Double(PANGO_SCALE)
        return LabelMeasure(
            width: Double(label.width) / unit, height: Double(label.height) / unit, baseline: Double(label.baseline) / unit,
            digitMiddle: digitMiddle)
    }

    /// Puts one label into the text layout, laid out for drawing at `scale`.
    private func setLabel(_ number: String, unit: Marker.Unit, scale: Double) {
        layout.setRuns(shaper.runs(number: number, unit: unit))
        shaper.prepare(layout, scale: scale)
    }

    /// Draws and encodes `request`: the PNG, its hash and its content-hashed name.
    public func render(_ request: MarkerRequest) throws(RenderError) -> RenderedMarker {
        let (surface, geometry) = try drawSurface(request)
        let png = try encoder.encode(surface)
        return RenderedMarker(request: request, png: png, width: surface.width, height: surface.height, anchor: geometry.anchor)
    }

    /// `render` with the time of its two steps, drawing and encoding, for the benchmark.
    public func renderTimed(_ request: MarkerRequest) throws(RenderError) -> (marker: RenderedMarker, draw: Duration, encode: Duration) {
        let clock = ContinuousClock()
        let start = clock.now
        let (surface, geometry) = try drawSurface(request)
        let drawn = clock.now
        let png = try encoder.encode(surface)
        let encoded = clock.now
        let marker = RenderedMarker(request: request, png: png, width: surface.width, height: surface.height, anchor: geometry.anchor)
        return (marker, drawn - start, encoded - drawn)
    }
}
