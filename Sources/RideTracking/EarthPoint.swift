#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
package import RouteModel

/// A point in metres from the Earth's centre (WGS84's Earth-centred, Earth-fixed axes).
///
/// A route's pieces are straight chords between such points: no projection to choose, no seam at
/// the antimeridian or the poles, and a chord of 2 km strays at most 8 cm below the ground.
package struct EarthPoint: Sendable, Equatable {
    package var x: Double
    package var y: Double
    package var z: Double

    init(x: Double, y: Double, z: Double) {
        self.x = x
        self.y = y
        self.z = z
    }

    /// The point on the ellipsoid's surface at `coordinate`.
    package init(_ coordinate: Coordinate) {
        let latitude = coordinate.latitude * .pi / 180
        let longitude = coordinate.longitude * .pi / 180
        self.init(sines: Sines(latitude: latitude, longitude: longitude))
    }

    /// The point on the ellipsoid's surface whose latitude and longitude have `sines`.
    init(sines: Sines) {
        let primeVertical = WGS84.a / (1 - WGS84.e2 * sines.sinLatitude * sines.sinLatitude).squareRoot()
        x = primeVertical * sines.cosLatitude * sines.cosLongitude
        y = primeVertical * sines.cosLatitude * sines.sinLongitude
        z = primeVertical * (1 - WGS84.e2) * sines.sinLatitude
    }

    /// The sines and cosines of a latitude and a longitude, in radians.
    struct Sines: Sendable {
        var latitude, longitude: Double
        var sinLatitude, cosLatitude, sinLongitude, cosLongitude: Double

        init(latitude: Double, longitude: Double) {
            (self.latitude, self.longitude) = (latitude, longitude)
            (sinLatitude, cosLatitude, sinLongitude, cosLongitude) = (sin(latitude), cos(latitude), sin(longitude), cos(longitude))
        }

        /// Those of a latitude and longitude within `nearby` radians of these, by the angle sums
        /// (sin(a + d) = sin a cos d + cos a sin d) with sin d and cos d from their series, to
        /// well under a micrometre on the ground; nil further away.
        func moved(latitude: Double, longitude: Double) -> Sines? {
            let (dLatitude, dLongitude) = (latitude - self.latitude, longitude - self.longitude)
            guard abs(dLatitude) <= Self.nearby, abs(dLongitude) <= Self.nearby else { return nil }
            func sinCos(_ d: Double) -> (Double, Double) {
                let d2 = d * d
                return (d * (1 - d2 / 6 * (1 - d2 / 20)), 1 - d2 / 2 * (1 - d2 / 12))
            }
            let (sinLat, cosLat) = sinCos(dLatitude)
            let (sinLon, cosLon) = sinCos(dLongitude)
            var moved = self
            (moved.latitude, moved.longitude) = (latitude, longitude)
            moved.sinLatitude = sinLatitude * cosLat + cosLatitude * sinLat
            moved.cosLatitude = cosLatitude * cosLat - sinLatitude * sinLat
            moved.sinLongitude = sinLongitude * cosLon + cosLongitude * sinLon
            moved.cosLongitude = cosLongitude * cosLon - sinLongitude * sinLon
            return moved
        }

        /// 0.001 rad, about 6 km: the series' next terms are then below 10⁻¹⁸.
        static let nearby = 0.001
    }

    /// Turns a rider's fixes into points, each from the last one's sines where it is near
    /// (four trigonometric calls were a twentieth of a fix's time), and exactly again every
    /// `exactEvery` fixes so rounding cannot gather.
    package struct Converter: Sendable {
        private var last: Sines?
        private var sinceExact = 0
        static let exactEvery = 256

        package init() {}

        package mutating func point(_ coordinate: Coordinate) -> EarthPoint {
            let latitude = coordinate.latitude * .pi / 180
            let longitude = coordinate.longitude * .pi / 180
            let sines: Sines
            if sinceExact < Self.exactEvery, let moved = last?.moved(latitude: latitude, longitude: longitude) {
                sines = moved
                sinceExact += 1
            } else {
                sines = Sines(latitude: latitude, longitude: longitude)
                sinceExact = 0
            }
            last = sines
            return EarthPoint(sines: sines)
        }
    }

    /// The latitude and longitude of the point, for points within a few kilometres of the surface.
    ///
    /// Bowring's formula, one step: exact to well under a millimetre that near the surface.
    var coordinate: Coordinate {
        let a = WGS84.a
        let b = a * (1 - WGS84.f)
        let secondEccentricity2 = (a * a - b * b) / (b * b)
        let p = (x * x + y * y).squareRoot()
        let theta = atan2(z * a, p * b)
        let sinTheta = sin(theta)
        let cosTheta = cos(theta)
        let latitude = atan2(
            z + secondEccentricity2 * b * sinTheta * sinTheta * sinTheta,
            p - WGS84.e2 * a * cosTheta * cosTheta * cosTheta)
        let longitude = p == 0 ? 0 : atan2(y, x)
        return Coordinate(latitude: latitude * 180 / .pi, longitude: longitude * 180 / .pi)
    }

    static func - (left: EarthPoint, right: EarthPoint) -> EarthPoint {
        EarthPoint(x: left.x - right.x, y: left.y - right.y, z: left.z - right.z)
    }

    static func + (left: EarthPoint, right: EarthPoint) -> EarthPoint {
        EarthPoint(x: left.x + right.x, y: left.y + right.y, z: left.z + right.z)
    }

    static func * (scale: Double, point: EarthPoint) -> EarthPoint {
        EarthPoint(x: scale * point.x, y: scale * point.y, z: scale * point.z)
    }

    func dot(_ other: EarthPoint) -> Double { x * other.x + y * other.y + z * other.z }

    func cross(_ other: EarthPoint) -> EarthPoint {
        EarthPoint(x: y * other.z - z * other.y, y: z * other.x - x * other.z, z: x * other.y - y * other.x)
    }

    /// Metres in a straight line to `other`.
    package func distance(to other: EarthPoint) -> Double {
        let difference = other - self
        return difference.dot(difference).squareRoot()
    }
}
