import CPangoCairo
package import MarkerSpec

/// One marker's drawing as data, every Cairo call `MarkerPainter` makes and the background it
/// paints over: for the benchmark's floor, which makes the same calls from C with nothing in between.
package struct PaintPlan {
    /// Glyphs in one Cairo font (a `cairo_scaled_font_t`), placed in label space (points).
    package struct GlyphRun {
        package var font: OpaquePointer
        package var glyphs: [(index: UInt, x: Double, y: Double)]
    }

    /// A label's top-left corner in pixels, and its runs.
    package struct Label {
        package var x: Double
        package var y: Double
        package var runs: [GlyphRun]
    }

    package var width: Int
    package var height: Int
    package var scale: Double
    /// The A8 `cairo_surface_t` the shadow colour is painted through.
    package var shadowMask: OpaquePointer
    /// The ARGB32 `cairo_surface_t` of the kept background (shadow, pill, dot) the renderer copies.
    package var background: OpaquePointer
    package var palette: Palette
    package var pill: Rect
    package var cornerRadius: Double
    package var borderWidth: Double
    package var dot: (x: Double, y: Double, radius: Double)
    package var dividers: [Rect]
    package var labels: [Label]
    package var icons: [(isFlag: Bool, rect: Rect)]
    /// What the pointers above point into, kept alive with the plan.
    let owners: [AnyObject]
}

extension MarkerRenderer {
    /// The drawing of `request` as data, laid out and shaped exactly as `render` would draw it.
    package func paintPlan(_ request: MarkerRequest) throws(RenderError) -> PaintPlan {
        let segments = LabelSegment.segments(of: request.marker)
        let scale = request.scale.factor
        let labels = try labels(of: segments, unit: request.marker.unit, scale: request.scale)
        let geometry = MarkerLayout(segments: segments, labels: labels.map(measure), scale: request.scale)
        let mask = try shadowMask(for: geometry)
        let background = try background(for: geometry, palette: request.theme.palette)
        let planned = zip(geometry.labelOrigins, labels).map { origin, label in
            PaintPlan.Label(
                x: origin.x, y: origin.y,
                runs: label.placedRuns(originX: 0, originY: 0).map { font, glyphs in
                    PaintPlan.GlyphRun(font: font, glyphs: glyphs.map { ($0.index, $0.x, $0.y) })
                })
        }
        return PaintPlan(
            width: geometry.canvasWidth, height: geometry.canvasHeight, scale: scale, shadowMask: mask.pointer,
            background: background.pointer,
            palette: request.theme.palette, pill: geometry.pill, cornerRadius: MarkerMetrics.cornerRadius * scale,
            borderWidth: MarkerMetrics.borderWidth * scale, dot: (geometry.dotCentreX, geometry.dotCentreY, geometry.dotRadius),
            dividers: geometry.dividers, labels: planned, icons: geometry.icons.map { ($0.icon == .flag, $0.rect) },
            owners: [mask, background] + labels.flatMap { $0.runs.map(\.font) })
    }
}
