/// Where a marker's picture is opaque, in points around its anchor (y grows downwards): its pill,
/// with the label and icons on it, and its dot. The soft shadow around them is not part of it.
///
/// What screen placement keeps apart. The same at every theme; across scales, the union of what
/// each scale draws, so that one placement holds for every image of the marker.
public struct MarkerFootprint: Sendable, Hashable {
    /// An axis-aligned box, in points from the anchor.
    public struct Box: Sendable, Hashable {
        public var left: Double
        public var top: Double
        public var right: Double
        public var bottom: Double

        public init(left: Double, top: Double, right: Double, bottom: Double) {
            self.left = left
            self.top = top
            self.right = right
            self.bottom = bottom
        }

        /// The smallest box holding both.
        public func union(_ other: Box) -> Box {
            Box(left: min(left, other.left), top: min(top, other.top), right: max(right, other.right), bottom: max(bottom, other.bottom))
        }

        public var width: Double { right - left }
        public var height: Double { bottom - top }
    }

    /// The pill: fill, border, labels and icons.
    public var pill: Box
    /// The connector dot, whose centre is the anchor.
    public var dot: Box

    public init(pill: Box, dot: Box) {
        self.pill = pill
        self.dot = dot
    }

    /// The smallest box holding the pill and the dot.
    public var bounds: Box { pill.union(dot) }

    /// Each part the larger of the two: what holds `self` and `other` wherever either is drawn.
    public func union(_ other: MarkerFootprint) -> MarkerFootprint {
        MarkerFootprint(pill: pill.union(other.pill), dot: dot.union(other.dot))
    }
}
