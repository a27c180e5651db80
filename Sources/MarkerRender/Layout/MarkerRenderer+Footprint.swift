public import MarkerSpec

extension MarkerRenderer {
    /// Where `marker`'s pictures are opaque, in points around the anchor: the union over every
    /// scale drawn, since each rounds its pill to whole pixels. Measured as drawing lays it out
    /// (the label set in glyphs), without drawing.
    public func footprint(of marker: Marker) throws(RenderError) -> MarkerFootprint {
        var union: MarkerFootprint? = nil
        for scale in MarkerRequest.scales {
            let request: MarkerRequest
            do { request = try MarkerRequest(marker: marker, theme: .day, scale: scale) } catch { throw RenderError(error.description) }
            let footprint = try layout(for: request).footprint
            union = union.map { $0.union(footprint) } ?? footprint
        }
        guard let union else { throw RenderError("no scale to measure \(marker.label) at") }
        return union
    }
}

extension MarkerLayout {
    /// The pill and the dot in points from the anchor.
    var footprint: MarkerFootprint {
        let s = scale.factor
        func box(_ left: Double, _ top: Double, _ right: Double, _ bottom: Double) -> MarkerFootprint.Box {
            MarkerFootprint.Box(
                left: (left - dotCentreX) / s, top: (top - dotCentreY) / s, right: (right - dotCentreX) / s, bottom: (bottom - dotCentreY) / s)
        }
        return MarkerFootprint(
            pill: box(pill.x, pill.y, pill.maxX, pill.maxY),
            dot: box(dotCentreX - dotRadius, dotCentreY - dotRadius, dotCentreX + dotRadius, dotCentreY + dotRadius))
    }
}
