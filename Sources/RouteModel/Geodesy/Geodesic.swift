import CGeodesic

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Shortest paths on the WGS84 ellipsoid, by Karney's algorithm (GeographicLib, from Debian).
///
/// Accurate to 15 nanometres for any pair of points, nearly antipodal and antipodal pairs included,
/// so a stage's length and the points placed along it always agree.
public enum Geodesic {
    /// The solution of the inverse problem: how far apart two points are and in which directions.
    public struct Inverse: Sendable, Equatable {
        /// Metres along the geodesic.
        public var distance: Double
        /// Degrees clockwise from north at the first point, -180...180.
        public var initialAzimuth: Double
        /// Degrees clockwise from north at the second point, in the direction of travel, -180...180.
        public var finalAzimuth: Double

        /// Creates a solution from its parts.
        public init(distance: Double, initialAzimuth: Double, finalAzimuth: Double) {
            self.distance = distance
            self.initialAzimuth = initialAzimuth
            self.finalAzimuth = finalAzimuth
        }
    }

    /// The geodesic from one point to another; coincident points give distance 0.
    public static func inverse(from start: Coordinate, to end: Coordinate) -> Inverse {
        var distance = 0.0
        var initialAzimuth = 0.0
        var finalAzimuth = 0.0
        markerpaint_geodesic_inverse(start.latitude, start.longitude, end.latitude, end.longitude, &distance, &initialAzimuth, &finalAzimuth)
        return Inverse(distance: distance, initialAzimuth: initialAzimuth, finalAzimuth: finalAzimuth)
    }

    /// The point `distance` metres from `start` along the geodesic leaving it at `azimuth` degrees.
    public static func direct(from start: Coordinate, azimuth: Double, distance: Double) -> Coordinate {
        // Exactly the start, not the start after a round trip through the series.
        guard distance != 0 else { return start }
        var latitude = 0.0
        var longitude = 0.0
        markerpaint_geodesic_direct(start.latitude, start.longitude, azimuth, distance, &latitude, &longitude)
        return Coordinate(latitude: latitude, longitude: longitude)
    }

    /// Metres from one point to the next, without the azimuths (the hot path of measuring a route).
    package static func distance(_ start: Coordinate, _ end: Coordinate) -> Double {
        if let short = shortDistance(start, end) { return short }
        return markerpaint_geodesic_distance(start.latitude, start.longitude, end.latitude, end.longitude)
    }
}

extension Geodesic {
    /// The longest segment `shortDistance` measures, in metres.
    package static let shortSegment = 50.0
    /// How far from the equator `shortDistance` measures, in degrees of latitude.
    package static let shortSegmentLatitude = 75.0

    /// The length of a segment of at most 50 m between latitudes ±75°, by the ellipsoid's radii of
    /// curvature at its middle latitude; nil for any other segment.
    ///
    /// GPS tracks are mostly such segments, and Karney's series cost ten times as much. Within those
    /// bounds this agrees with Karney's solution to 15 nanometres, the accuracy Karney's method itself
    /// claims (tests check it on random segments against GeographicLib): the flat formula's error grows
    /// with the cube of the length and with the meridians' convergence toward the poles.
    package static func shortDistance(_ start: Coordinate, _ end: Coordinate) -> Double? {
        // NaN fails these comparisons and goes to Karney's method, which reports it.
        guard abs(start.latitude) <= shortSegmentLatitude, abs(end.latitude) <= shortSegmentLatitude else { return nil }
        var longitudeStep = end.longitude - start.longitude
        if longitudeStep > 180 { longitudeStep -= 360 } else if longitudeStep < -180 { longitudeStep += 360 }
        let latitudeStep = end.latitude - start.latitude
        // 50 m is under 0.0005° of latitude anywhere and under 0.0018° of longitude below 75°.
        guard abs(latitudeStep) < 0.0005, abs(longitudeStep) < 0.002 else { return nil }
        let radians = Double.pi / 180
        let middle = (start.latitude + end.latitude) / 2 * radians
        let sine = sin(middle)
        let w = 1 - WGS84.e2 * sine * sine
        let primeVertical = WGS84.a / w.squareRoot()
        let meridional = WGS84.a * (1 - WGS84.e2) / (w * w.squareRoot())
        let north = meridional * latitudeStep * radians
        let east = primeVertical * cos(middle) * longitudeStep * radians
        let distance = (north * north + east * east).squareRoot()
        return distance <= shortSegment ? distance : nil
    }
}
