/// A tile's place: zoom, column and row from the north-west (XYZ, as Web Mercator tiles count).
public struct TileAddress: Sendable, Hashable, Comparable, CustomStringConvertible {
    public var zoom: Int
    public var x: Int
    public var y: Int

    public init(zoom: Int, x: Int, y: Int) {
        self.zoom = zoom
        self.x = x
        self.y = y
    }

    /// The most zoom a tile ID holds in 64 bits.
    public static let maximumZoom = 31

    public var description: String { "\(zoom)/\(x)/\(y)" }

    /// Whether the zoom is 0-31 and the column and row lie within it.
    public var isValid: Bool {
        (0...Self.maximumZoom).contains(zoom) && x >= 0 && y >= 0 && x < 1 << zoom && y < 1 << zoom
    }

    /// The row counted from the south, as MBTiles (TMS) stores it.
    public var tmsRow: Int { (1 << zoom) - 1 - y }

    /// The PMTiles tile ID: the tiles of every lower zoom, then the Hilbert curve's index at this one.
    /// The address must be valid.
    public var tileID: UInt64 {
        var id = ((UInt64(1) << (2 * UInt64(zoom))) - 1) / 3
        var (x, y) = (UInt64(x), UInt64(y))
        var bit = zoom - 1
        while bit >= 0 {
            let side = UInt64(1) << UInt64(bit)
            let rx: UInt64 = x & side
            let ry: UInt64 = y & side
            id += ((3 * rx) ^ ry) << UInt64(bit)
            (x, y) = Self.rotate(side, x, y, rx, ry)
            bit -= 1
        }
        return id
    }

    /// The address of a tile ID, nil past zoom 31.
    public init?(tileID: UInt64) {
        var acc: UInt64 = 0
        for zoom in 0...Self.maximumZoom {
            let count = UInt64(1) << (2 * UInt64(zoom))
            if tileID < acc + count {
                var position = tileID - acc
                var (x, y): (UInt64, UInt64) = (0, 0)
                var side: UInt64 = 1
                let n = UInt64(1) << UInt64(zoom)
                while side < n {
                    let rx = 1 & (position / 2)
                    let ry = 1 & (position ^ rx)
                    (x, y) = Self.rotate(side, x, y, rx, ry)
                    x += side * rx
                    y += side * ry
                    position /= 4
                    side *= 2
                }
                self.init(zoom: zoom, x: Int(x), y: Int(y))
                return
            }
            acc += count
        }
        return nil
    }

    private static func rotate(_ side: UInt64, _ x: UInt64, _ y: UInt64, _ rx: UInt64, _ ry: UInt64) -> (UInt64, UInt64) {
        guard ry == 0 else { return (x, y) }
        // Wrapping: the bits above `side` are never read again, as in the reference, whose integers are unbounded.
        if rx != 0 { return (side &- 1 &- y, side &- 1 &- x) }
        return (y, x)
    }

    public static func < (left: TileAddress, right: TileAddress) -> Bool { left.tileID < right.tileID }
}
