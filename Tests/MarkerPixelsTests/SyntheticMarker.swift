import Foundation
import MarkerPixels

/// A picture shaped like markerpaint's output: a translucent pill with label strokes and a soft drop shadow on a transparent canvas.
///
/// Every field is a knob a rendering regression could turn, so tests describe a change as one edit.
struct SyntheticMarker: Sendable {
    /// How shape edges are smoothed, standing in for rasterisers that anti-alias differently.
    enum EdgeFilter: Sendable {
        /// Coverage proportional to the distance across the edge pixel.
        case linear
        /// The same coverage through a smoothstep, as a different rasteriser would give.
        case smooth
    }

    var width = 100
    var height = 60
    /// Centre of the pill, in pixels from the top-left corner.
    /// Off the pixel grid, as real layouts are, so that every edge is anti-aliased.
    var centerX = 50.3
    var centerY = 27.4
    var pillWidth = 64.0
    var pillHeight = 26.0
    /// The pill's colour; its alpha is ignored in favour of `fillOpacity`.
    var fill = RGBA(r: 32, g: 84, b: 160, a: 255)
    var fillOpacity = 0.85
    var labelColor = RGBA(r: 255, g: 255, b: 255, a: 255)
    /// Left edges of the label's vertical strokes, relative to the pill centre: glyph stems, thin enough that a shift shows.
    var labelStrokes: [Double] = [-15.2, -7.6, 3.3, 10.5]
    var strokeWidth = 2.0
    var strokeHeight = 12.0
    var shadowOffsetY = 3.0
    var shadowBlur = 5.0
    var shadowOpacity = 0.45
    /// First row where the shadow is cut away, as a too-tight clip does; nil keeps all of it.
    var shadowClipRow: Int?
    /// What the canvas is cleared to.
    var background = RGBA.clear
    var edgeFilter = EdgeFilter.linear

    /// The marker as straight-alpha pixels, each sampled at its centre.
    func render() -> RGBAImage {
        var image = RGBAImage(width: width, height: height)
        for row in 0..<height {
            for column in 0..<width {
                let x = Double(column) + 0.5
                let y = Double(row) + 0.5
                var pixel = Premultiplied(background)

                if shadowClipRow.map({ row < $0 }) ?? true {
                    // A blurred edge falls off over about twice the blur radius.
                    let distance = pillDistance(x: x, y: y - shadowOffsetY)
                    let ramp = Self.smoothstep(min(max(0.5 - distance / (2 * shadowBlur), 0), 1))
                    pixel.composite(RGBA(r: 0, g: 0, b: 0, a: 255), alpha: shadowOpacity * ramp)
                }

                let pillCoverage = coverage(distance: pillDistance(x: x, y: y))
                pixel.composite(fill, alpha: fillOpacity * pillCoverage)

                let strokeCoverage =
                    labelStrokes.map { left in
                        coverage(
                            distance: Self.boxDistance(
                                x: x - (centerX + left + strokeWidth / 2), y: y - centerY,
                                halfWidth: strokeWidth / 2, halfHeight: strokeHeight / 2))
                    }.max() ?? 0
                pixel.composite(labelColor, alpha: strokeCoverage)

                image[column, row] = pixel.straight
            }
        }
        return image
    }

    /// Signed distance from the pill's outline: negative inside.
    private func pillDistance(x: Double, y: Double) -> Double {
        let radius = pillHeight / 2
        return Self.boxDistance(
            x: x - centerX, y: y - centerY,
            halfWidth: pillWidth / 2 - radius, halfHeight: pillHeight / 2 - radius) - radius
    }

    private func coverage(distance: Double) -> Double {
        let linear = min(max(0.5 - distance, 0), 1)
        switch edgeFilter {
        case .linear: return linear
        case .smooth: return Self.smoothstep(linear)
        }
    }

    /// Signed distance from an axis-aligned box centred on the origin.
    private static func boxDistance(x: Double, y: Double, halfWidth: Double, halfHeight: Double) -> Double {
        let qx = abs(x) - halfWidth
        let qy = abs(y) - halfHeight
        return hypot(max(qx, 0), max(qy, 0)) + min(max(qx, qy), 0)
    }

    private static func smoothstep(_ t: Double) -> Double { t * t * (3 - 2 * t) }
}

/// A pixel being composited, premultiplied so that "over" is a plain weighted sum.
private struct Premultiplied {
    var r = 0.0, g = 0.0, b = 0.0, a = 0.0

    init(_ pixel: RGBA) {
        a = Double(pixel.a) / 255
        r = Double(pixel.r) / 255 * a
        g = Double(pixel.g) / 255 * a
        b = Double(pixel.b) / 255 * a
    }

    /// Paints `color` at `alpha` over the pixel.
    mutating func composite(_ color: RGBA, alpha: Double) {
        let keep = 1 - alpha
        r = Double(color.r) / 255 * alpha + r * keep
        g = Double(color.g) / 255 * alpha + g * keep
        b = Double(color.b) / 255 * alpha + b * keep
        a = alpha + a * keep
    }

    var straight: RGBA {
        guard a > 0 else { return .clear }
        func byte(_ value: Double) -> UInt8 { UInt8(min(max(value * 255, 0), 255).rounded()) }
        return RGBA(r: byte(r / a), g: byte(g / a), b: byte(b / a), a: byte(a))
    }
}
