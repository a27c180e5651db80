/// A position in an image, in pixels from its top-left corner.
///
/// Whole at whole scales (JSON writes `39`); at 1.5 the dot is 9 pixels wide, so its centre, the
/// anchor, is a pixel's centre (`39.5`).
public struct PixelPoint: Sendable, Hashable, Codable {
    public var x: Double
    public var y: Double

    public init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }
}
