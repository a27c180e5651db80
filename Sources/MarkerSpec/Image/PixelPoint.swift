/// A pixel position in an image.
public struct PixelPoint: Sendable, Hashable, Codable {
    public var x: Int
    public var y: Int

    public init(x: Int, y: Int) {
        self.x = x
        self.y = y
    }
}
