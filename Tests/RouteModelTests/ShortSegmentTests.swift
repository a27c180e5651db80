import TestSupport
import Testing

@testable import RouteModel

/// Short segments are measured by the radii of curvature at their middle latitude instead of
/// Karney's series; within their bounds the two must agree to Karney's own 15 nm.
@Suite("Short segments against Karney")
struct ShortSegmentTests {
    @Test(
        "every segment up to 50 m between ±75° agrees with Karney's distance to 15 nm",
        arguments: [(0.0, 75.0), (70.0, 75.0), (-75.0, -70.0), (-1.0, 1.0)], [1.0, 10, 50])
    func agreesWithKarney(latitudes: (Double, Double), longest: Double) {
        var random = SeededGenerator(seed: UInt64(abs(latitudes.0 * 1000 + latitudes.1 * 7 + longest)))
        var measured = 0
        var worst = 0.0
        for _ in 0..<20_000 {
            let start = Coordinate(
                latitude: Double.random(in: latitudes.0...latitudes.1, using: &random), longitude: Double.random(in: -180...180, using: &random))
            let end = Geodesic.direct(
                from: start, azimuth: Double.random(in: 0..<360, using: &random), distance: Double.random(in: 0...longest, using: &random))
            guard let short = Geodesic.shortDistance(start, end) else { continue }
            measured += 1
            worst = max(worst, abs(short - Geodesic.inverse(from: start, to: end).distance))
        }
        #expect(worst <= 15e-9, "worst difference \(worst) m")
        #expect(measured > 15_000, "only \(measured) of 20,000 segments were short enough")
    }

    @Test(
        "longer segments, segments beyond ±75° and NaN are left to Karney's method",
        arguments: [
            (Coordinate(latitude: 45, longitude: 7), Coordinate(latitude: 45.0005, longitude: 7)),
            (Coordinate(latitude: 75.1, longitude: 7), Coordinate(latitude: 75.1, longitude: 7.0001)),
            (Coordinate(latitude: -80, longitude: 7), Coordinate(latitude: -80, longitude: 7)),
            (Coordinate(latitude: .nan, longitude: 7), Coordinate(latitude: 45, longitude: 7)),
            (Coordinate(latitude: 0, longitude: 0), Coordinate(latitude: 0, longitude: 180)),
        ])
    func outsideTheBounds(start: Coordinate, end: Coordinate) {
        #expect(Geodesic.shortDistance(start, end) == nil)
    }

    @Test("a step across longitude ±180 is short", arguments: [(179.99995, -179.99995), (-179.99995, 179.99995), (180.0, -180.0)])
    func antimeridian(from: Double, to: Double) throws {
        let start = Coordinate(latitude: 12, longitude: from)
        let end = Coordinate(latitude: 12.0001, longitude: to)
        let short = try #require(Geodesic.shortDistance(start, end))
        #expect(abs(short - Geodesic.inverse(from: start, to: end).distance) <= 15e-9)
    }
}
