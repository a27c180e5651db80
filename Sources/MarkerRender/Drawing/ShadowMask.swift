import CPangoCairo
import MarkerSpec

/// The alpha of a marker's CSS box-shadow: the pill and dot moved 1pt down, blurred with a true
/// Gaussian, and, as in CSS, not painted under the shape itself.
///
/// It depends only on the canvas and the scale, not on the label or the colours, so a renderer
/// keeps the few it needs (pill widths repeat) instead of blurring for every marker.
struct ShadowMask {
    struct Key: Hashable, Sendable {
        let width: Int
        let height: Int
        let scale: MarkerScale
    }

    /// Enough for every pill width a long route produces; beyond it the oldest are dropped.
    static let limit = 64

    private var cache = SurfaceCache<Key>(limit: limit)
    private let shared: SharedPixels<Key>

    init(sharing shared: SharedPixels<Key>) {
        self.shared = shared
    }

    /// The mask for `layout`, from the cache or made now.
    mutating func mask(for layout: MarkerLayout) throws(RenderError) -> CairoSurface {
        let key = Key(width: layout.canvasWidth, height: layout.canvasHeight, scale: layout.scale)
        return try cache.surface(for: key) { () throws(RenderError) in
            if let kept = try shared.surface(for: key) { return kept }
            let made = try Self.make(for: layout)
            shared.keep(made, for: key)
            return made
        }
    }

    static func make(for layout: MarkerLayout) throws(RenderError) -> CairoSurface {
        let width = layout.canvasWidth
        let height = layout.canvasHeight
        let cast = try CairoSurface(format: CAIRO_FORMAT_A8, width: width, height: height)
        let body = try CairoSurface(format: CAIRO_FORMAT_A8, width: width, height: height)
        for (surface, offset) in [(cast, MarkerMetrics.shadowOffsetY * layout.scale.factor), (body, 0)] {
            let context = try CairoContext(surface)
            context.setSource(Colour(red: 0, green: 0, blue: 0))
            addShape(of: layout, to: context, offsetY: offset)
            context.fill()
            try context.checkStatus("drawing the shadow mask")
        }
        let blur = ShadowBlur(sigma: MarkerMetrics.shadowSigma * layout.scale.factor, radius: layout.shadowRadius)
        cast.withPixels { shadow, stride in
            blur.apply(to: shadow, width: width, height: height, stride: stride)
            body.withPixels { shape, _ in
                for index in 0..<(stride * height) {
                    let outside = 255 - UInt32(shape[index])
                    shadow[index] = UInt8((UInt32(shadow[index]) * outside + 127) / 255)
                }
            }
        }
        return cast
    }

    /// Adds the pill and the dot, the shape that casts the shadow, to the path.
    private static func addShape(of layout: MarkerLayout, to context: CairoContext, offsetY: Double) {
        var pill = layout.pill
        pill.y += offsetY
        context.addRoundedRectangle(pill, radius: MarkerMetrics.cornerRadius * layout.scale.factor)
        context.addCircle(centreX: layout.dotCentreX, centreY: layout.dotCentreY + offsetY, radius: layout.dotRadius)
    }
}
