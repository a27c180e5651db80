/// An axis-aligned rectangle in points or pixels.
public struct Rect: Sendable, Hashable {
    public var x: Double
    public var y: Double
    public var width: Double
    public var height: Double

    public init(x: Double, y: Double, width: Double, height: Double) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    public var maxX: Double { x + width }
    public var maxY: Double { y + height }

    /// The rectangle shrunk by `amount` on every side.
    func inset(by amount: Double) -> Rect {
        Rect(x: x + amount, y: y + amount, width: width - 2 * amount, height: height - 2 * amount)
    }
}
