#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The plane MapLibre and Mapbox GL lay a map out on: Web Mercator, 512 points wide at zoom 0
/// (their 512-pixel tiles), twice as wide at each zoom further in.
public enum WebMercator {
    /// The world's width, and height, at zoom 0 in points.
    public static let worldSize = 512.0

    /// Where `coordinate` lies at zoom 0, in points from the top-left corner of the world: `x` in
    /// `0..<512` (the antimeridian at 0), `y` clamped to `0...512`, as a GeoJSON source clamps the
    /// latitudes past ±85.05° that Mercator cannot show.
    public static func point(_ coordinate: Coordinate) -> (x: Double, y: Double) {
        var x = (coordinate.longitude + 180) / 360 * worldSize
        if x >= worldSize { x -= worldSize }
        if x < 0 { x += worldSize }
        let sine = sin(coordinate.latitude * .pi / 180)
        let y = (0.5 - log((1 + sine) / (1 - sine)) / (4 * .pi)) * worldSize
        return (x, y.isNaN ? worldSize / 2 : min(worldSize, max(0, y)))
    }
}
