import TestSupport
import Foundation
import RouteModel
import MarkerSpec
import Testing

@Suite("Geodesic on WGS84 against geographiclib")
struct GeodesicTests {
    /// Karney's algorithm and geographiclib are the same mathematics in two languages: they agree to
    /// rounding, far inside the millimetre the route needs, for every pair, antipodal ones included.
    static let distanceTolerance = 1e-6

    @Test(arguments: try Fixtures.reference().inverse)
    func inverseMatchesGeographicLib(_ line: Reference.InverseCase) {
        let solution = Geodesic.inverse(
            from: Coordinate(latitude: line.lat1, longitude: line.lon1),
            to: Coordinate(latitude: line.lat2, longitude: line.lon2))
        #expect(abs(solution.distance - line.distance) <= Self.distanceTolerance)
        // Azimuths of coincident points are arbitrary.
        if line.distance > 0 {
            #expect(angleDifference(solution.initialAzimuth, line.azimuth1) < 1e-8)
            #expect(angleDifference(solution.finalAzimuth, line.azimuth2) < 1e-8)
        }
    }

    @Test(arguments: try Fixtures.reference().direct)
    func directMatchesGeographicLib(_ line: Reference.DirectCase) {
        let end = Geodesic.direct(
            from: Coordinate(latitude: line.lat1, longitude: line.lon1), azimuth: line.azimuth, distance: line.distance)
        let expected = Coordinate(latitude: line.lat2, longitude: line.lon2)
        #expect(metresBetween(end, expected) < 1e-4)
        #expect((-180...180).contains(end.longitude))
    }

    /// No pair of points, however close to antipodal, gives NaN or a distance longer than half a meridian allows.
    @Test(arguments: [0.0, 0.3, -2, 15, 45, 89.5])
    func everyPairIsFinite(latitude: Double) {
        let start = Coordinate(latitude: latitude, longitude: 0)
        for step in 0...400 {
            let other = Coordinate(latitude: -latitude + Double(step % 20 - 10) * 0.05, longitude: 178 + Double(step) * 0.005)
            let solution = Geodesic.inverse(from: start, to: other)
            #expect(solution.distance.isFinite && solution.initialAzimuth.isFinite && solution.finalAzimuth.isFinite)
            #expect(solution.distance > 19_000_000 && solution.distance < 20_100_000)
        }
    }

    @Test(arguments: [
        Coordinate(latitude: 46.05, longitude: 14.5), Coordinate(latitude: 90, longitude: 0),
        Coordinate(latitude: -90, longitude: 123), Coordinate(latitude: 0, longitude: 180),
        Coordinate(latitude: 0, longitude: 0),
    ])
    func coincidentPointsAreZeroApart(_ point: Coordinate) {
        let solution = Geodesic.inverse(from: point, to: point)
        #expect(solution.distance == 0)
        #expect(solution.initialAzimuth.isFinite && solution.finalAzimuth.isFinite)
        #expect(Geodesic.direct(from: point, azimuth: 77, distance: 0) == point)
    }

    /// Crossing longitude ±180 is a short step whichever side the line starts on (and -180 is 180).
    @Test(arguments: [(179.99, -179.99), (-179.99, 179.99), (180.0, -179.999), (-180.0, 180.0)])
    func antimeridianIsCrossedTheShortWay(from: Double, to: Double) {
        let latitude = -16.8
        let distance = Geodesic.inverse(
            from: Coordinate(latitude: latitude, longitude: from), to: Coordinate(latitude: latitude, longitude: to)
        ).distance
        // The arc of the parallel, radius N·cosφ: over 2 km it is longer than the geodesic by under a micrometre.
        let latitudeRadians = latitude * .pi / 180
        let eccentricitySquared = (2 - 1 / 298.257_223_563) / 298.257_223_563
        let parallelRadius = 6_378_137 / (1 - eccentricitySquared * sin(latitudeRadians) * sin(latitudeRadians)).squareRoot() * cos(latitudeRadians)
        let expected = abs(remainder(to - from, 360)) * .pi / 180 * parallelRadius
        #expect(abs(distance - expected) < 1e-6)
    }
}
