import CPangoCairo
import MarkerSpec

/// A marker's shadow, pill and dot: everything under the labels, icons and dividers.
///
/// It depends only on the canvas, the scale and the palette, and pill widths come in whole
/// pixels, so a route's thousands of markers share a few dozen backgrounds. A pool paints each
/// once, in whichever renderer needs it first, and every renderer copies it under every label;
/// the pixels are those painting it again would make.
struct MarkerBackground {
    struct Key: Hashable, Sendable {
        let width: Int
        let height: Int
        let scale: MarkerScale
        let palette: Palette
    }

    static let limit = 64

    private var cache = SurfaceCache<Key>(limit: limit)
    private var shadows: ShadowMask
    private let shared: SharedPixels<Key>

    init(sharing drawing: SharedDrawing) {
        shared = drawing.backgrounds
        shadows = ShadowMask(sharing: drawing.shadowMasks)
    }

    /// The background of `layout` in `palette`, from the cache, another renderer, or made now:
    /// stitched from a narrower one where it can be, else painted.
    mutating func surface(for layout: MarkerLayout, palette: Palette) throws(RenderError) -> CairoSurface {
        let key = Key(width: layout.canvasWidth, height: layout.canvasHeight, scale: layout.scale, palette: palette)
        if let kept = cache.kept(key) { return kept }
        let made: CairoSurface
        if let fromNeighbour = try shared.surface(for: key) {
            made = fromNeighbour
        } else {
            let pillWidth = Int(layout.pill.width)
            let stitch = BackgroundStitch(scale: layout.scale)
            if stitch.stitches(pillWidth: pillWidth) {
                let narrow = MarkerLayout(backgroundWithPillWidth: stitch.referencePillWidth, scale: layout.scale)
                made = try stitch.stitch(try surface(for: narrow, palette: palette), pillWidth: pillWidth, height: layout.canvasHeight)
            } else {
                made = try painted(layout, palette: palette)
            }
            shared.keep(made, for: key)
        }
        cache.keep(made, for: key)
        return made
    }

    /// The background of `layout` in `palette`, painted: what a stitched one must equal.
    mutating func painted(_ layout: MarkerLayout, palette: Palette) throws(RenderError) -> CairoSurface {
        let surface = try CairoSurface(format: CAIRO_FORMAT_ARGB32, width: layout.canvasWidth, height: layout.canvasHeight)
        let context = try CairoContext(surface)
        try MarkerPainter(layout: layout, palette: palette).paintBackground(on: context, shadow: try shadows.mask(for: layout))
        cairo_surface_flush(surface.pointer)
        return surface
    }

    /// The shadow mask for `layout`, from the cache or made now.
    mutating func shadowMask(for layout: MarkerLayout) throws(RenderError) -> CairoSurface {
        try shadows.mask(for: layout)
    }
}
