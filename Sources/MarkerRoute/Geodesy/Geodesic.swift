import CGeodesic

/// Shortest paths on the WGS84 ellipsoid, by Karney's algorithm (GeographicLib's C code, from PROJ).
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
        withUnsafePointer(to: wgs84) { ellipsoid in
            geod_inverse(
                ellipsoid, start.latitude, start.longitude, end.latitude, end.longitude,
                &distance, &initialAzimuth, &finalAzimuth)
        }
        return Inverse(distance: distance, initialAzimuth: initialAzimuth, finalAzimuth: finalAzimuth)
    }

    /// The point `distance` metres from `start` along the geodesic leaving it at `azimuth` degrees.
    public static func direct(from start: Coordinate, azimuth: Double, distance: Double) -> Coordinate {
        // Exactly the start, not the start after a round trip through the series.
        guard distance != 0 else { return start }
        var latitude = 0.0
        var longitude = 0.0
        withUnsafePointer(to: wgs84) { ellipsoid in
            geod_direct(ellipsoid, start.latitude, start.longitude, azimuth, distance, &latitude, &longitude, nil)
        }
        return Coordinate(latitude: latitude, longitude: longitude)
    }

    /// Metres from one point to the next, without the azimuths (the hot path of measuring a route).
    static func distance(_ start: Coordinate, _ end: Coordinate) -> Double {
        var distance = 0.0
        withUnsafePointer(to: wgs84) { ellipsoid in
            geod_inverse(ellipsoid, start.latitude, start.longitude, end.latitude, end.longitude, &distance, nil, nil)
        }
        return distance
    }
}

/// The ellipsoid's precomputed series coefficients, made once and only read afterwards.
private let wgs84: geod_geodesic = {
    var ellipsoid = geod_geodesic()
    geod_init(&ellipsoid, WGS84.a, WGS84.f)
    return ellipsoid
}()
