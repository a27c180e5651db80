/// The WGS84 ellipsoid that GPS coordinates refer to.
enum WGS84 {
    /// Equatorial radius in metres.
    static let a = 6_378_137.0
    /// Flattening.
    static let f = 1 / 298.257_223_563
    /// Polar radius in metres.
    static let b = a * (1 - f)
    /// (a² − b²) / b², which scales cos²α into Vincenty's u².
    static let secondEccentricitySquared = (a * a - b * b) / (b * b)
    /// (2a + b) / 3, the sphere used when the ellipsoidal solution does not converge.
    static let meanRadius = (2 * a + b) / 3
}
