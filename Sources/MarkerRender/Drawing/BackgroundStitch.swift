import CPangoCairo
import MarkerSpec

/// A wide background put together, column by column, from a narrower one of the same scale and
/// palette: exactly the pixels painting it would give.
///
/// Every edge of a background sits on the pixel grid (pill widths have the dot's parity, so it is
/// centred on a pixel's edge or, at 1.5, a pixel's centre), and everything painted is column-local: a column's pixels depend only on
/// which shapes reach within the shadow's blur radius of it. Between the pill's rounded ends and
/// the dot, no shape begins or ends, so every column there is the same column. A background is
/// then the reference's left end, its plain column repeated, the reference's dot, its plain
/// column again, and its right end, each moved by a whole number of pixels. `BackgroundStitchTests`
/// holds every width stitched here to the painted one, byte for byte.
struct BackgroundStitch {
    let scale: MarkerScale
    /// The narrowest pill with a plain column on each side of the dot: the reference.
    let referencePillWidth: Int
    /// The widest pill stitched; wider ones (long combined markers) are painted.
    let widestPillWidth: Int
    /// Columns left of this are the left end's.
    private let leftEnd: Int
    /// How far the dot's columns reach either side of its centre.
    private let dotReach: Int
    /// How far left of the pill's right edge the right end's columns begin.
    private let rightEnd: Int
    private let left: Int

    /// How many pill widths past the reference are stitched; the tests check every one of them.
    static let span = 300

    init(scale: MarkerScale) {
        typealias M = MarkerMetrics
        let s = scale.factor
        let frame = MarkerLayout.Frame(pillWidth: 0, scale: scale)
        // A column is plain when no shape's edge lies within the blur's radius of it; the tests
        // find this exact: one column less and stitched pixels differ from painted ones.
        let margin = frame.shadowRadius
        let corner = Int((M.cornerRadius * s).rounded(.up))
        let dotRadius = Int((M.dotDiameter / 2 * s).rounded(.up))
        self.scale = scale
        left = Int(frame.pill.x)
        leftEnd = left + corner + margin
        dotReach = dotRadius + margin
        rightEnd = corner + margin
        // Half the pill must hold the end, the dot's reach and one plain column, on either side.
        var reference = 2 * (corner + margin + dotReach + 1)
        if reference % 2 != MarkerLayout.Frame.pillParity(scale: scale) { reference += 1 }
        referencePillWidth = reference
        widestPillWidth = reference + Self.span
    }

    /// Whether a pill `pillWidth` wide is stitched rather than painted.
    func stitches(pillWidth: Int) -> Bool {
        pillWidth > referencePillWidth && pillWidth <= widestPillWidth && pillWidth % 2 == referencePillWidth % 2
    }

    /// The background of a pill `pillWidth` wide, from `reference` (the same scale and palette,
    /// `referencePillWidth` wide).
    func stitch(_ reference: CairoSurface, pillWidth: Int, height: Int) throws(RenderError) -> CairoSurface {
        let width = pillWidth + 2 * left
        let surface = try CairoSurface(format: CAIRO_FORMAT_ARGB32, width: width, height: height)
        let centre = left + pillWidth / 2
        let referenceCentre = left + referencePillWidth / 2
        let dotStart = centre - dotReach
        let dotEnd = centre + dotReach + 1
        let rightStart = left + pillWidth - rightEnd
        let leftPlain = leftEnd
        let rightPlain = referenceCentre + dotReach + 1
        reference.withPixels { source, sourceStride in
            surface.withPixels { target, targetStride in
                for y in 0..<height {
                    let from = UnsafeMutableRawPointer(source + y * sourceStride).assumingMemoryBound(to: UInt32.self)
                    let to = UnsafeMutableRawPointer(target + y * targetStride).assumingMemoryBound(to: UInt32.self)
                    to.update(from: from, count: leftEnd)
                    (to + leftEnd).update(repeating: from[leftPlain], count: dotStart - leftEnd)
                    (to + dotStart).update(from: from + (referenceCentre - dotReach), count: dotEnd - dotStart)
                    (to + dotEnd).update(repeating: from[rightPlain], count: rightStart - dotEnd)
                    (to + rightStart).update(from: from + (left + referencePillWidth - rightEnd), count: width - rightStart)
                }
            }
        }
        return surface
    }
}
