import MarkerRender
import MarkerSpec

/// The alpha of a CSS box-shadow, as the markers cast theirs: the shape moved down, blurred with a
/// true Gaussian, and not painted under the shape itself.
enum ShadowCast {
    /// A `width` × `height` mask of the shadow of the path `addShape` adds, moved `offsetY` down
    /// and blurred with σ `sigma` (a kernel of `radius` pixels), all in pixels.
    static func mask(
        width: Int, height: Int, offsetY: Double, sigma: Double, radius: Int, addShape: (CairoContext) -> Void
    ) throws(RenderError) -> CairoSurface {
        let cast = try CairoSurface(.alpha, width: width, height: height)
        let body = try CairoSurface(.alpha, width: width, height: height)
        for (surface, offset) in [(cast, offsetY), (body, 0)] {
            let context = try CairoContext(surface)
            context.translate(x: 0, y: offset)
            addShape(context)
            context.setSource(Colour(rgb: 0, 0, 0))
            context.fill()
            try context.checkStatus("drawing a shadow")
        }
        let blur = ShadowBlur(sigma: sigma, radius: radius)
        cast.withPixels { shadow, stride in
            blur.apply(to: shadow, width: width, height: height, stride: stride)
            body.withPixels { shape, _ in
                for index in 0..<(stride * height) {
                    shadow[index] = UInt8((UInt32(shadow[index]) * (255 - UInt32(shape[index])) + 127) / 255)
                }
            }
        }
        return cast
    }
}
