import CPangoCairo
import MarkerSpec

/// A marker's shadow, pill and dot: everything under the labels, icons and dividers.
///
/// It depends only on the canvas, the scale and the palette, and pill widths come in whole
/// pixels, so a route's thousands of markers share a few dozen backgrounds. A renderer paints
/// each once and copies it under every label; the pixels are those painting it again would make.
struct MarkerBackground {
    struct Key: Hashable {
        let width: Int
        let height: Int
        let scale: Int
        let palette: Palette
    }

    private var cache = SurfaceCache<Key>(limit: 64)
    private var shadows = ShadowMask()

    /// The background of `layout` in `palette`, from the cache or painted now.
    mutating func surface(for layout: MarkerLayout, palette: Palette) throws(RenderError) -> CairoSurface {
        let key = Key(width: layout.canvasWidth, height: layout.canvasHeight, scale: layout.scale, palette: palette)
        return try cache.surface(for: key) { () throws(RenderError) in
            let surface = try CairoSurface(format: CAIRO_FORMAT_ARGB32, width: layout.canvasWidth, height: layout.canvasHeight)
            let context = try CairoContext(surface)
            try MarkerPainter(layout: layout, palette: palette).paintBackground(on: context, shadow: try shadows.mask(for: layout))
            cairo_surface_flush(surface.pointer)
            return surface
        }
    }

    /// The shadow mask for `layout`, from the cache or made now.
    mutating func shadowMask(for layout: MarkerLayout) throws(RenderError) -> CairoSurface {
        try shadows.mask(for: layout)
    }
}
