#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import MarkerSpec

/// Where a pin's parts go at one scale, in pixels: MARKER.md's pin, with a canvas that holds its
/// shadow, laid out without drawing.
struct PinGeometry: Sendable, Equatable {
    /// MARKER.md's numbers, in points.
    enum Metrics {
        static let circleDiameter = 24.0
        static let height = 32.0
        static let borderWidth = 1.5
        static let iconSize = 14.0
        static let textSize = 11.0
        /// The widest text the circle holds: inside the border, with 1.5pt to spare each side.
        static let textWidth = circleDiameter - 2 * borderWidth - 3
        /// The pill's shadow: 1pt down, a Gaussian of σ 1.5pt, reaching three σ.
        static let shadowOffsetY = 1.0
        static let shadowSigma = 1.5
        /// Canvas margins: the shadow's reach rounded up to whole points, so that the canvas is
        /// whole pixels at 1.5 too; less above and more below by the shadow's offset.
        static let sideMargin = (3 * shadowSigma).rounded(.up)
        static let topMargin = sideMargin - shadowOffsetY
        static let bottomMargin = sideMargin + shadowOffsetY
        /// From the circle's centre to where the sides leave it for the tip: the tangents' angle
        /// off straight down, whose cosine is the radius over the distance to the tip.
        static let tangentAngle = acos(circleDiameter / 2 / (height - circleDiameter / 2))
    }

    let scale: Double
    let canvasWidth: Int
    let canvasHeight: Int
    let centreX: Double
    let centreY: Double
    let radius: Double
    /// The tip, which is the anchor.
    let tipX: Double
    let tipY: Double
    let borderWidth: Double
    let shadowOffsetY: Double
    let shadowSigma: Double
    let shadowRadius: Int

    init(scale: MarkerScale) {
        typealias M = Metrics
        let s = scale.factor
        self.scale = s
        canvasWidth = Int(((M.circleDiameter + 2 * M.sideMargin) * s).rounded())
        canvasHeight = Int(((M.height + M.topMargin + M.bottomMargin) * s).rounded())
        centreX = (M.sideMargin + M.circleDiameter / 2) * s
        centreY = (M.topMargin + M.circleDiameter / 2) * s
        radius = M.circleDiameter / 2 * s
        tipX = centreX
        tipY = (M.topMargin + M.height) * s
        borderWidth = M.borderWidth * s
        shadowOffsetY = M.shadowOffsetY * s
        shadowSigma = M.shadowSigma * s
        shadowRadius = Int((3 * M.shadowSigma * s).rounded(.up))
    }

    var anchor: PixelPoint { PixelPoint(x: tipX, y: tipY) }

    /// The icon's 24-unit square: its scale and its top-left corner, so that it is `iconSize`
    /// points across, centred in the circle.
    var iconTransform: (scale: Double, x: Double, y: Double) {
        let unit = Metrics.iconSize / 24 * scale
        return (unit, centreX - 12 * unit, centreY - 12 * unit)
    }
}

/// A pin's numbers as a map style needs them.
public enum PinMetrics {
    /// Points from a pin image's bottom edge up to its tip (the anchor), the same at every scale;
    /// horizontally the tip is the image's centre.
    public static let tipAboveBottom = PinGeometry.Metrics.bottomMargin
}
