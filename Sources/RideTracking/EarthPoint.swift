#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import RouteModel

/// A point in metres from the Earth's centre (WGS84's Earth-centred, Earth-fixed axes).
///
/// A route's pieces are straight chords between such points: no projection to choose, no seam at
/// the antimeridian or the poles, and a chord of 2 km strays at most 8 cm below the ground.
struct EarthPoint: Sendable, Equatable {
    var x: Double
    var y: Double
    var z: Double

    init(x: Double, y: Double, z: Double) {
        self.x = x
        self.y = y
        self.z = z
    }

    /// The point on the ellipsoid's surface at `coordinate`.
    init(_ coordinate: Coordinate) {
        let latitude = coordinate.latitude * .pi / 180
        let longitude = coordinate.longitude * .pi / 180
        let sinLatitude = sin(latitude)
        let cosLatitude = cos(latitude)
        let primeVertical = WGS84.a / (1 - WGS84.e2 * sinLatitude * sinLatitude).squareRoot()
        x = primeVertical * cosLatitude * cos(longitude)
        y = primeVertical * cosLatitude * sin(longitude)
        z = primeVertical * (1 - WGS84.e2) * sinLatitude
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
    func distance(to other: EarthPoint) -> Double {
        let difference = other - self
        return difference.dot(difference).squareRoot()
    }
}
