import MarkerSpec

/// Every length of MARKER.md, in points.
enum MarkerMetrics {
    static let pillHeight = 20.0
    static let cornerRadius = 3.0
    static let borderWidth = 1.0
    static let horizontalPadding = 4.0
    static let minimumPillWidth = 28.0
    static let numberSize = 12.0
    static let unitSize = 7.0
    static let unitRise = 2.5
    static let iconGap = 2.0
    static let iconHeight = 8.0
    static let playIconWidth = 7.0
    static let flagIconWidth = 7.0
    /// A combined marker's parts are parted by a 1pt line in the border colour, 12pt tall,
    /// with the pill's own 4pt padding on each side, so each part reads as a marker of its own.
    static let dividerWidth = 1.0
    static let dividerGap = horizontalPadding
    static let dividerInset = 4.0
    static let dotDiameter = 6.0
    static let dotTop = 19.0
    static let shadowOffsetY = 1.0
    /// CSS blur radius 3px is a Gaussian with σ = 1.5.
    static let shadowSigma = 1.5
    /// Three σ holds all but 0.13% of a Gaussian: past it even an opaque shadow is below half an 8-bit step.
    static let shadowReach = 3 * shadowSigma
    /// The canvas margins: the shadow's reach, rounded up to whole points so that the anchor sits
    /// the same number of points from the image's edges at every scale (one map style fits all).
    static let sideMargin = shadowReach.rounded(.up)
    static let topMargin = sideMargin - shadowOffsetY
    static let bottomMargin = sideMargin + shadowOffsetY
    /// From the image's bottom edge up to the anchor (the dot's centre).
    static let anchorAboveBottom = bottomMargin + dotDiameter / 2
}

/// What the text measures, in points, from Pango.
struct LabelMeasure: Sendable, Equatable {
    /// Logical width of number + unit.
    var width: Double
    /// Logical height of the label line.
    var height: Double
    /// From the line's top to its baseline.
    var baseline: Double
    /// From the baseline to the middle of the digits' ink (negative: above the baseline).
    var digitMiddle: Double
}

/// Where every part of one marker goes, in device pixels.
struct MarkerLayout: Sendable {
    /// An icon and where it goes.
    struct PlacedIcon: Sendable {
        let icon: LabelSegment.Icon
        let rect: Rect
    }

    let scale: MarkerScale
    let canvasWidth: Int
    let canvasHeight: Int
    /// The kernel radius of the shadow blur.
    let shadowRadius: Int
    let pill: Rect
    let dotCentreX: Double
    let dotCentreY: Double
    /// The top-left corner of each segment's label, in segment order.
    let labelOrigins: [(x: Double, y: Double)]
    let icons: [PlacedIcon]
    let dividers: [Rect]
    /// Left and right ends of labels, icons and dividers together.
    let content: ClosedRange<Double>

    /// The dot's centre, which sits on the route point.
    var anchor: PixelPoint { PixelPoint(x: dotCentreX, y: dotCentreY) }

    var dotRadius: Double { MarkerMetrics.dotDiameter / 2 * scale.factor }

    /// The canvas, pill and dot of a pill `pillWidth` pixels wide, `pillParity(scale:)` odd or even
    /// so that the dot's edges sit on the pixel grid.
    ///
    /// At whole scales every length is whole pixels. At 1.5 the side margin (7.5 px) rounds up to
    /// 8, and the 9-pixel dot moves half a pixel down (its top from 28.5 to 29) so that it too lies
    /// on whole pixels, centred on a pixel's centre: the anchor stays 9pt (13.5 px) above the bottom.
    struct Frame {
        let shadowRadius: Int
        let canvasWidth: Int
        let canvasHeight: Int
        let pill: Rect
        let dotCentreX: Double
        let dotCentreY: Double

        init(pillWidth: Int, scale: MarkerScale) {
            typealias M = MarkerMetrics
            let s = scale.factor
            shadowRadius = Int((M.shadowReach * s).rounded(.up))
            let top = Int((M.topMargin * s).rounded(.up))
            let left = Int((M.sideMargin * s).rounded(.up))
            let dotTop = Int((M.dotTop * s).rounded(.up))
            let dotDiameter = M.dotDiameter * s
            canvasWidth = pillWidth + 2 * left
            canvasHeight = top + dotTop + Int(dotDiameter + M.bottomMargin * s)
            pill = Rect(x: Double(left), y: Double(top), width: Double(pillWidth), height: (M.pillHeight * s).rounded())
            dotCentreX = Double(left) + Double(pillWidth) / 2
            dotCentreY = Double(top + dotTop) + dotDiameter / 2
        }

        /// 1 if pills at `scale` are an odd number of pixels wide, 0 if even: the dot's width in
        /// pixels (9 at 1.5), so that centred under the pill its edges fall on the grid.
        static func pillParity(scale: MarkerScale) -> Int { Int(MarkerMetrics.dotDiameter * scale.factor) % 2 }
    }

    /// A marker with nothing on its pill, `pillWidth` pixels wide: all a background needs.
    init(backgroundWithPillWidth pillWidth: Int, scale: MarkerScale) {
        let frame = Frame(pillWidth: pillWidth, scale: scale)
        self.init(frame, scale: scale, labelOrigins: [], icons: [], dividers: [], content: frame.dotCentreX...frame.dotCentreX)
    }

    private init(
        _ frame: Frame, scale: MarkerScale, labelOrigins: [(x: Double, y: Double)], icons: [PlacedIcon], dividers: [Rect],
        content: ClosedRange<Double>
    ) {
        self.scale = scale
        shadowRadius = frame.shadowRadius
        canvasWidth = frame.canvasWidth
        canvasHeight = frame.canvasHeight
        pill = frame.pill
        dotCentreX = frame.dotCentreX
        dotCentreY = frame.dotCentreY
        self.labelOrigins = labelOrigins
        self.icons = icons
        self.dividers = dividers
        self.content = content
    }

    /// Points from the content's left end to its right: the labels, `widths` points each, with the
    /// icons after each and a divider between segments.
    static func contentWidth(of segments: [LabelSegment], labelWidths widths: [Double]) -> Double {
        typealias M = MarkerMetrics
        var width = 0.0
        for (index, (segment, labelWidth)) in zip(segments, widths).enumerated() {
            if index > 0 { width += 2 * M.dividerGap + M.dividerWidth }
            width += labelWidth
            for icon in segment.icons { width += M.iconGap + icon.width }
        }
        return width
    }

    /// The pill's width in pixels at `scale` around content `contentWidth` points wide: whole
    /// pixels keep every edge on the grid, and the dot's parity keeps the dot centred on it too.
    static func pillWidth(contentWidth: Double, scale: MarkerScale) -> Int {
        typealias M = MarkerMetrics
        var pillWidth = Int((max(M.minimumPillWidth, contentWidth + 2 * M.horizontalPadding) * scale.factor).rounded(.up))
        if pillWidth % 2 != Frame.pillParity(scale: scale) { pillWidth += 1 }
        return pillWidth
    }

    /// Lays out `segments`, whose labels measure `labels` (one each, in order).
    init(segments: [LabelSegment], labels: [LabelMeasure], scale: MarkerScale) {
        typealias M = MarkerMetrics
        let s = scale.factor
        // Offsets in points from the content's left end, then the whole width.
        var cursor = 0.0
        var labelOffsets: [Double] = []
        var iconOffsets: [(LabelSegment.Icon, Double)] = []
        var dividerOffsets: [Double] = []
        for (segment, label) in zip(segments, labels) {
            if !labelOffsets.isEmpty {
                cursor += M.dividerGap
                dividerOffsets.append(cursor)
                cursor += M.dividerWidth + M.dividerGap
            }
            labelOffsets.append(cursor)
            cursor += label.width
            for icon in segment.icons {
                cursor += M.iconGap
                iconOffsets.append((icon, cursor))
                cursor += icon.width
            }
        }
        let contentWidth = cursor
        let frame = Frame(pillWidth: Self.pillWidth(contentWidth: contentWidth, scale: scale), scale: scale)
        let pill = frame.pill

        let contentLeft = (pill.x + (pill.width - contentWidth * s) / 2).rounded()
        // Every label has the same fonts, so one line box: centre it, then put the baseline on a
        // whole pixel so the digits sit crisply.
        let line = labels.first ?? LabelMeasure(width: 0, height: M.pillHeight, baseline: M.pillHeight / 2, digitMiddle: 0)
        let baselineY = (pill.y + ((M.pillHeight - line.height) / 2 + line.baseline) * s).rounded()
        func x(_ offset: Double) -> Double { (contentLeft + offset * s).rounded() }
        let iconTop = (baselineY + (line.digitMiddle - M.iconHeight / 2) * s).rounded()
        let dividerTop = pill.y + M.dividerInset * s
        self.init(
            frame, scale: scale,
            labelOrigins: zip(labelOffsets, labels).map { offset, label in (x(offset), baselineY - label.baseline * s) },
            icons: iconOffsets.map { icon, offset in
                PlacedIcon(icon: icon, rect: Rect(x: x(offset), y: iconTop, width: icon.width * s, height: M.iconHeight * s))
            },
            dividers: dividerOffsets.map { offset in
                Rect(x: x(offset), y: dividerTop, width: M.dividerWidth * s, height: (M.pillHeight - 2 * M.dividerInset) * s)
            },
            content: contentLeft...(contentLeft + contentWidth * s))
    }
}
