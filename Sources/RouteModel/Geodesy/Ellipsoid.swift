/// The WGS84 ellipsoid that GPS coordinates refer to.
package enum WGS84 {
    /// Equatorial radius in metres.
    package static let a = 6_378_137.0
    /// Flattening.
    package static let f = 1 / 298.257_223_563
}

extension WGS84 {
    /// First eccentricity squared.
    package static var e2: Double { f * (2 - f) }
}
