import CPangoCairo
public import MarkerSpec

extension MarkerRenderer {
    /// Where `marker`'s pictures are opaque, in points around the anchor: the union over every
    /// scale drawn, since each rounds its pill to whole pixels. Measured as drawing lays it out
    /// (each label's width as its glyphs set it), without drawing or placing a glyph.
    public func footprint(of marker: Marker) throws(RenderError) -> MarkerFootprint {
        let segments = LabelSegment.segments(of: marker)
        var union: MarkerFootprint? = nil
        for scale in MarkerRequest.scales {
            var widths: [Double] = []
            widths.reserveCapacity(segments.count)
            for segment in segments {
                widths.append(Double(try labelWidth(segment.number, unit: marker.unit, scale: scale)) / Double(PANGO_SCALE))
            }
            let pillWidth = MarkerLayout.pillWidth(contentWidth: MarkerLayout.contentWidth(of: segments, labelWidths: widths), scale: scale)
            let footprint = MarkerLayout.Frame(pillWidth: pillWidth, scale: scale).footprint(scale: scale)
            union = union.map { $0.union(footprint) } ?? footprint
        }
        guard let union else { throw RenderError("no scale to measure \(marker.label) at") }
        return union
    }
}

extension MarkerLayout {
    /// The pill and the dot in points from the anchor.
    var footprint: MarkerFootprint {
        Frame.footprint(pill: pill, dotCentreX: dotCentreX, dotCentreY: dotCentreY, scale: scale)
    }
}

extension MarkerLayout.Frame {
    /// The pill and the dot in points from the anchor.
    func footprint(scale: MarkerScale) -> MarkerFootprint {
        Self.footprint(pill: pill, dotCentreX: dotCentreX, dotCentreY: dotCentreY, scale: scale)
    }

    static func footprint(pill: Rect, dotCentreX: Double, dotCentreY: Double, scale: MarkerScale) -> MarkerFootprint {
        let s = scale.factor
        let dotRadius = MarkerMetrics.dotDiameter / 2 * s
        func box(_ left: Double, _ top: Double, _ right: Double, _ bottom: Double) -> MarkerFootprint.Box {
            MarkerFootprint.Box(
                left: (left - dotCentreX) / s, top: (top - dotCentreY) / s, right: (right - dotCentreX) / s, bottom: (bottom - dotCentreY) / s)
        }
        return MarkerFootprint(
            pill: box(pill.x, pill.y, pill.maxX, pill.maxY),
            dot: box(dotCentreX - dotRadius, dotCentreY - dotRadius, dotCentreX + dotRadius, dotCentreY + dotRadius))
    }
}
