/// What an offline pack covers: the corridor around the route and the zooms of its tiles.
public struct CorridorOptions: Sendable, Equatable {
    /// Metres around the route, measured on the ellipsoid.
    public var buffer = 2_000.0
    /// The map zooms the pack serves.
    public var zooms: ClosedRange<Int> = 8...16
    /// The tiles' size in pixels: 512 (vector tiles) are fetched at the map's zoom, 256 (raster
    /// tiles) one zoom further in, as MapLibre Native and Mapbox fetch them.
    public var tileSize = 256
    /// The most tiles a pack may hold, counted from the route before any is worked out.
    public var maximumTiles = 5_000_000

    public init() {}

    /// The zoom of the tiles a map at `zoom` shows.
    public func tileZoom(forMapZoom zoom: Int) -> Int { tileSize == 256 ? zoom + 1 : zoom }

    public static let bufferRange = 1.0...100_000.0
    public static let zoomRange = 0...22

    /// Zooms written `first-last` (`8-16`), both within `zoomRange`, or nil.
    public static func zooms(parsing text: String) -> ClosedRange<Int>? {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false).map { Int($0) }
        guard parts.count == 2, let first = parts[0], let last = parts[1], first <= last, zoomRange.contains(first), zoomRange.contains(last)
        else { return nil }
        return first...last
    }
}
