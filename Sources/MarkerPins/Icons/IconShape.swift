import MarkerRender

/// One shape of an icon, drawn in a 24-unit square: a path and how it is painted.
///
/// Icons are data, not code: a shape's steps are the moves, lines, curves and arcs of an SVG
/// path, so each icon reads as its drawing and draws the same on pixels and in SVG or PDF.
struct IconShape: Sendable {
    enum Step: Sendable {
        case move(Double, Double)
        case line(Double, Double)
        case curve(Double, Double, Double, Double, Double, Double)
        /// An arc about (x, y) of radius r from one angle to another, in degrees, clockwise on
        /// screen (y down) unless `anticlockwise`.
        case arc(x: Double, y: Double, r: Double, from: Double, to: Double, anticlockwise: Bool = false)
        case close
        case circle(x: Double, y: Double, r: Double)
        case rectangle(x: Double, y: Double, width: Double, height: Double, radius: Double = 0)
    }

    /// Filled (holes cut by the even-odd rule, where there are any), or stroked with round ends.
    enum Paint: Sendable {
        case fill
        case fillWithHoles
        case stroke(width: Double)
    }

    let paint: Paint
    let steps: [Step]

    static func fill(_ steps: Step...) -> IconShape { IconShape(paint: .fill, steps: steps) }
    static func fillWithHoles(_ steps: Step...) -> IconShape { IconShape(paint: .fillWithHoles, steps: steps) }
    static func stroke(_ width: Double, _ steps: Step...) -> IconShape { IconShape(paint: .stroke(width: width), steps: steps) }

    /// Adds the path to `context` and paints it with the context's source.
    func draw(on context: CairoContext) {
        for step in steps {
            switch step {
            case .move(let x, let y):
                context.move(toX: x, y: y)
            case .line(let x, let y):
                context.line(toX: x, y: y)
            case .curve(let x1, let y1, let x2, let y2, let x, let y):
                context.curve(x1, y1, x2, y2, toX: x, y: y)
            case .arc(let x, let y, let r, let from, let to, let anticlockwise):
                context.arc(centreX: x, centreY: y, radius: r, from: from * .pi / 180, to: to * .pi / 180, anticlockwise: anticlockwise)
            case .close:
                context.closePath()
            case .circle(let x, let y, let r):
                context.addCircle(centreX: x, centreY: y, radius: r)
            case .rectangle(let x, let y, let width, let height, let radius):
                let rect = Rect(x: x, y: y, width: width, height: height)
                if radius > 0 {
                    context.addRoundedRectangle(rect, radius: radius)
                } else {
                    context.newSubPath()
                    context.addRectangle(rect)
                }
            }
        }
        switch paint {
        case .fill: context.fill(evenOdd: false)
        case .fillWithHoles: context.fill(evenOdd: true)
        case .stroke(let width): context.strokeRound(width: width)
        }
    }
}
