import MarkerRender
import MarkerSpec

/// Where a callout's parts go at one scale, in pixels: MARKER.md's bubble, its width fitted to its
/// content within 120-240 pt, its height to its text within the line limits.
struct CalloutLayout: Sendable {
    /// MARKER.md's numbers, in points.
    enum Metrics {
        static let padding = 12.0
        static let cornerRadius = 12.0
        static let widths = 120.0...240.0
        static let borderWidth = 1.0
        static let tail = (width: 16.0, height: 8.0)
        static let title = (size: 15.0, lines: 2)
        static let line = (size: 12.0, lines: 3)
        /// Between the title and the first line, and between lines.
        static let gaps = (title: 6.0, line: 3.0)
        static let badge = (size: 11.0, height: 18.0, padding: 7.0, gap: 8.0, widest: (widths.upperBound - 2 * padding) / 2)
        /// A detail line's icon: 10 pt, and 4 pt before its text.
        static let lineIcon = (size: 10.0, gap: 4.0)
        /// A photo across the top: 216 × 120 pt (the widest content), corners of 8 pt, 8 pt above the title.
        static let photo = (width: 216.0, height: 120.0, cornerRadius: 8.0, gap: 8.0)
        /// `0 2px 8px rgba(0,0,0,0.25)`: CSS's blur of 8px is a Gaussian of σ 4.
        static let shadow = (offsetY: 2.0, sigma: 4.0, alpha: 0.25)
        static let sideMargin = (3 * shadow.sigma).rounded(.up)
        static let topMargin = sideMargin - shadow.offsetY
        static let bottomMargin = sideMargin + shadow.offsetY
    }

    let scale: Double
    let canvasWidth: Int
    let canvasHeight: Int
    /// The bubble without its tail.
    let box: Rect
    let cornerRadius: Double
    let tailWidth: Double
    let tailHeight: Double
    let borderWidth: Double
    /// The title paragraph's top-left corner and width; the badge's box, if any.
    let title: (x: Double, y: Double, width: Double)
    let badge: Rect?
    /// The photo's box, if there is one.
    let photo: Rect?
    /// Each detail line's icon (if any) and its text's top-left corner and width.
    let lines: [(icon: CalloutLineIcon?, text: String, x: Double, y: Double, width: Double)]
    /// Where a line's icon goes: the content's left edge; its size in pixels.
    let lineIconX: Double
    let lineIconSize: Double
    let shadowOffsetY: Double
    let shadowSigma: Double
    let shadowRadius: Int

    /// The tail's tip: the anchor.
    var anchor: PixelPoint { PixelPoint(x: box.x + box.width / 2, y: box.maxY + tailHeight) }

    /// A callout's two kinds of paragraph: the title, and a detail line.
    enum Paragraph {
        case title, line

        /// Its size in points, whether it is set Semi Bold, and how many lines it may take.
        var style: (size: Double, semibold: Bool, lines: Int) {
            switch self {
            case .title: (Metrics.title.size, true, Metrics.title.lines)
            case .line: (Metrics.line.size, false, Metrics.line.lines)
            }
        }
    }

    /// Lays `callout` out at `scale`, measuring its text with `naturalWidth` (the logical width of
    /// one unbroken line) and `paragraphHeight` (the height of a paragraph at a width, within its
    /// lines), both in pixels.
    init(
        _ callout: Callout, scale: MarkerScale, badgeTextWidth: Double?, naturalWidth: (String, Paragraph) -> Double,
        paragraphHeight: (String, Paragraph, Double) -> Double
    ) {
        typealias M = Metrics
        let s = scale.factor
        self.scale = s
        // The badge: its text with padding, never narrower than it is tall.
        // A long badge is held to half the widest content and cut with "…".
        let badgeWidth = badgeTextWidth.map { min(max($0 + 2 * M.badge.padding * s, M.badge.height * s), M.badge.widest * s) }
        let badgeRoom = badgeWidth.map { $0 + M.badge.gap * s } ?? 0
        // As wide as the widest unbroken text needs, within MARKER.md's widths, in whole even points
        // so that the canvas is whole pixels at 1.5 too.
        var natural = naturalWidth(callout.title, .title) + badgeRoom
        let indent = (M.lineIcon.size + M.lineIcon.gap) * s
        let split = callout.lines.map(CalloutLineIcon.split)
        for (icon, text) in split { natural = max(natural, naturalWidth(text, .line) + (icon == nil ? 0 : indent)) }
        // A photo fills the widest content.
        if callout.photo != nil { natural = M.photo.width * s }
        let points = min(max((natural / s + 2 * M.padding).rounded(.up), M.widths.lowerBound), M.widths.upperBound)
        let width = (points / 2).rounded(.up) * 2
        let contentWidth = (width - 2 * M.padding) * s
        let left = M.sideMargin * s + M.padding * s
        let top = M.topMargin * s
        var y = top + M.padding * s
        if callout.photo != nil {
            photo = Rect(x: left, y: y, width: M.photo.width * s, height: M.photo.height * s)
            y += (M.photo.height + M.photo.gap) * s
        } else {
            photo = nil
        }
        title = (left, y, contentWidth - badgeRoom)
        let titleHeight = paragraphHeight(callout.title, .title, contentWidth - badgeRoom)
        badge = badgeWidth.map { Rect(x: left + contentWidth - $0, y: y + (min(titleHeight, 20 * s) - M.badge.height * s) / 2, width: $0, height: M.badge.height * s) }
        y += max(titleHeight, badgeWidth == nil ? 0 : M.badge.height * s)
        var placed: [(CalloutLineIcon?, String, Double, Double, Double)] = []
        for (index, (icon, text)) in split.enumerated() {
            y += (index == 0 ? M.gaps.title : M.gaps.line) * s
            let shift = icon == nil ? 0 : indent
            placed.append((icon, text, left + shift, y, contentWidth - shift))
            y += paragraphHeight(text, .line, contentWidth - shift)
        }
        lines = placed
        lineIconX = left
        lineIconSize = M.lineIcon.size * s
        y += M.padding * s
        let heightPoints = (((y - top) / s) / 2).rounded(.up) * 2
        box = Rect(x: M.sideMargin * s, y: top, width: width * s, height: heightPoints * s)
        cornerRadius = M.cornerRadius * s
        tailWidth = M.tail.width * s
        tailHeight = M.tail.height * s
        borderWidth = M.borderWidth * s
        canvasWidth = Int(((width + 2 * M.sideMargin) * s).rounded())
        canvasHeight = Int(((heightPoints + M.tail.height + M.topMargin + M.bottomMargin) * s).rounded())
        shadowOffsetY = M.shadow.offsetY * s
        shadowSigma = M.shadow.sigma * s
        shadowRadius = Int((3 * M.shadow.sigma * s).rounded(.up))
    }

    /// The bubble and its tail as one outline, so that the border runs unbroken round both.
    func addOutline(to context: CairoContext) {
        let (x0, y0, x1, y1) = (box.x, box.y, box.maxX, box.maxY)
        let r = cornerRadius
        let middle = x0 + box.width / 2
        context.newSubPath()
        context.move(toX: x0 + r, y: y0)
        context.line(toX: x1 - r, y: y0)
        context.arc(centreX: x1 - r, centreY: y0 + r, radius: r, from: -.pi / 2, to: 0)
        context.line(toX: x1, y: y1 - r)
        context.arc(centreX: x1 - r, centreY: y1 - r, radius: r, from: 0, to: .pi / 2)
        context.line(toX: middle + tailWidth / 2, y: y1)
        context.line(toX: middle, y: y1 + tailHeight)
        context.line(toX: middle - tailWidth / 2, y: y1)
        context.line(toX: x0 + r, y: y1)
        context.arc(centreX: x0 + r, centreY: y1 - r, radius: r, from: .pi / 2, to: .pi)
        context.line(toX: x0, y: y0 + r)
        context.arc(centreX: x0 + r, centreY: y0 + r, radius: r, from: .pi, to: 3 * .pi / 2)
        context.closePath()
    }
}

/// A callout's numbers as a map style needs them.
public enum CalloutMetrics {
    /// Points from a callout image's bottom edge up to its tail's tip (the anchor), the same at
    /// every scale; horizontally the tip is the image's centre.
    public static let tipAboveBottom = CalloutLayout.Metrics.bottomMargin
}
