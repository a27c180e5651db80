/// The WGS84 ellipsoid that GPS coordinates refer to.
enum WGS84 {
    /// Equatorial radius in metres.
    static let a = 6_378_137.0
    /// Flattening.
    static let f = 1 / 298.257_223_563
}
