import CPangoCairo
import MarkerSpec

/// Paints one laid-out marker onto a Cairo context, back to front: shadow, pill, dot (the
/// background), then dividers, labels, icons.
struct MarkerPainter {
    let layout: MarkerLayout
    let palette: Palette

    /// Paints the whole marker. `shadow` is the layout's shadow mask (see `ShadowMask`), drawn in
    /// the palette's shadow colour. `showLabel(i)` draws segment `i`'s label with its line's
    /// top-left corner at the user-space origin, in points, in the current source colour.
    /// A new document (SVG, PDF) is not cleared first: it is empty, and a clear would be drawn into it.
    func paint(on context: CairoContext, shadow: CairoSurface, clearing: Bool = true, showLabel: (Int) -> Void) throws(RenderError) {
        try paintBackground(on: context, shadow: shadow, clearing: clearing)
        try paintForeground(on: context, showLabel: showLabel)
    }

    /// Clears the surface (if `clearing`) and paints what depends only on the canvas and palette: shadow, pill, dot.
    func paintBackground(on context: CairoContext, shadow: CairoSurface, clearing: Bool = true) throws(RenderError) {
        if clearing { context.clear() }
        context.paint(palette.shadow, maskedBy: shadow)
        paintPill(on: context)
        paintDot(on: context)
        try context.checkStatus("drawing the marker's background")
    }

    /// Paints what differs from marker to marker over a background: dividers, labels, icons.
    func paintForeground(on context: CairoContext, showLabel: (Int) -> Void) throws(RenderError) {
        cairo_new_path(context.pointer)
        paintDividers(on: context)
        for (index, origin) in layout.labelOrigins.enumerated() {
            paintLabel(at: origin, on: context) { showLabel(index) }
        }
        for placed in layout.icons { paintIcon(placed, on: context) }
        try context.checkStatus("drawing the marker")
    }

    /// Fill, then a border inset by half its width so it covers exactly the outer pixels.
    private func paintPill(on context: CairoContext) {
        let s = layout.scale.factor
        let border = MarkerMetrics.borderWidth * s
        context.addRoundedRectangle(layout.pill, radius: MarkerMetrics.cornerRadius * s)
        context.setSource(palette.pillFill)
        context.fill()
        context.addRoundedRectangle(layout.pill.inset(by: border / 2), radius: MarkerMetrics.cornerRadius * s - border / 2)
        context.setSource(palette.pillBorder)
        context.stroke(width: border)
    }

    private func paintDot(on context: CairoContext) {
        let border = MarkerMetrics.borderWidth * layout.scale.factor
        context.addCircle(centreX: layout.dotCentreX, centreY: layout.dotCentreY, radius: layout.dotRadius)
        context.setSource(palette.dotFill)
        context.fill()
        context.addCircle(centreX: layout.dotCentreX, centreY: layout.dotCentreY, radius: layout.dotRadius - border / 2)
        context.setSource(palette.dotBorder)
        context.stroke(width: border)
    }

    private func paintDividers(on context: CairoContext) {
        guard !layout.dividers.isEmpty else { return }
        for divider in layout.dividers { context.addRectangle(divider) }
        context.setSource(palette.pillBorder)
        context.fill()
    }

    private func paintLabel(at origin: (x: Double, y: Double), on context: CairoContext, show: () -> Void) {
        cairo_save(context.pointer)
        cairo_translate(context.pointer, origin.x, origin.y)
        cairo_scale(context.pointer, layout.scale.factor, layout.scale.factor)
        context.setSource(palette.label)
        show()
        cairo_restore(context.pointer)
    }

    private func paintIcon(_ placed: MarkerLayout.PlacedIcon, on context: CairoContext) {
        let icon = placed.rect
        context.setSource(palette.label)
        switch placed.icon {
        case .play:
            context.addPolygon([(icon.x, icon.y), (icon.maxX, icon.y + icon.height / 2), (icon.x, icon.maxY)])
            context.fill()
        case .flag:
            paintFlag(in: icon, on: context)
        }
    }

    /// A pole and a 3-wide, 2-high checker flag: dark squares solid, light ones faint so the flag keeps its outline.
    private func paintFlag(in icon: Rect, on context: CairoContext) {
        let s = layout.scale.factor
        let square = 2 * s
        context.addRectangle(Rect(x: icon.x, y: icon.y, width: 1 * s, height: icon.height))
        context.fill()
        let flagLeft = icon.x + 1 * s
        for row in 0..<2 {
            for column in 0..<3 {
                let cell = Rect(
                    x: flagLeft + Double(column) * square, y: icon.y + Double(row) * square,
                    width: square, height: square)
                context.addRectangle(cell)
                context.setSource((row + column) % 2 == 0 ? palette.label : palette.label.fading(by: 0.3))
                context.fill()
            }
        }
    }
}
