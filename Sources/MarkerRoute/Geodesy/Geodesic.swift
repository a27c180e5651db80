import Foundation

/// Shortest paths on the WGS84 ellipsoid (Vincenty's formulae, iterated to 1e-12).
///
/// Vincenty's series are accurate to a fraction of a millimetre for any pair of points whose
/// iteration converges, which is every pair but some nearly antipodal ones (19,900 km and more
/// apart). For those (never a segment of a real route) `inverse` falls back to the
/// great-circle distance on the auxiliary sphere scaled by the mean radius, which is finite and
/// within 0.1 % of the true distance, instead of diverging or returning NaN.
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

    /// The geodesic from one point to another; coincident points give distance 0 and azimuths 0.
    public static func inverse(from start: Coordinate, to end: Coordinate) -> Inverse {
        let p1 = ReducedPoint(start)
        let p2 = ReducedPoint(end)
        let solution = solveInverse(p1, p2)
        return Inverse(
            distance: solution.distance,
            initialAzimuth: degrees(atan2(p2.cosU * solution.sinλ, p1.cosU * p2.sinU - p1.sinU * p2.cosU * solution.cosλ)),
            finalAzimuth: degrees(atan2(p1.cosU * solution.sinλ, p1.cosU * p2.sinU * solution.cosλ - p1.sinU * p2.cosU))
        )
    }

    /// The point `distance` metres from `start` along the geodesic leaving it at `azimuth` degrees.
    public static func direct(from start: Coordinate, azimuth: Double, distance: Double) -> Coordinate {
        solveDirect(ReducedPoint(start), azimuth: azimuth, distance: distance)
    }

    /// Metres from one point to the next, without the azimuths (the hot path of measuring a route).
    static func distance(_ p1: ReducedPoint, _ p2: ReducedPoint) -> Double {
        solveInverse(p1, p2).distance
    }
}

/// A point with its reduced latitude's sine and cosine worked out once, so measuring a polyline
/// pays for each point's trigonometry once instead of once per neighbouring segment.
struct ReducedPoint: Sendable {
    let sinU: Double
    let cosU: Double
    /// Degrees, kept unconverted so longitude differences are taken before rounding to radians.
    let longitude: Double

    init(_ coordinate: Coordinate) {
        let φ = radians(coordinate.latitude)
        // Normalising (1 − f)·sinφ and cosφ instead of taking atan(tan U) stays finite at the poles.
        let sinU = (1 - WGS84.f) * sin(φ)
        let cosU = cos(φ)
        let norm = (sinU * sinU + cosU * cosU).squareRoot()
        self.sinU = sinU / norm
        self.cosU = cosU / norm
        longitude = coordinate.longitude
    }
}

private let convergence = 1e-12
/// Ordinary lines converge in a handful of iterations; near-antipodal ones may need many more.
private let maximumIterations = 200

/// What the azimuth formulas need from the inverse iteration besides the distance.
private struct InverseSolution {
    var distance: Double
    var sinλ: Double
    var cosλ: Double
}

private func solveInverse(_ p1: ReducedPoint, _ p2: ReducedPoint) -> InverseSolution {
    // Taking the difference modulo 360 makes a crossing of the antimeridian the short way round.
    let L = radians(remainder(p2.longitude - p1.longitude, 360))
    let f = WGS84.f
    var λ = L
    var converged = false
    for _ in 0..<maximumIterations {
        let sinλ = sin(λ)
        let cosλ = cos(λ)
        let x = p2.cosU * sinλ
        let y = p1.cosU * p2.sinU - p1.sinU * p2.cosU * cosλ
        let sinσ = (x * x + y * y).squareRoot()
        let cosσ = p1.sinU * p2.sinU + p1.cosU * p2.cosU * cosλ
        if sinσ == 0 {
            if cosσ > 0 { return InverseSolution(distance: 0, sinλ: 0, cosλ: 1) }
            break  // exactly antipodal: no unique geodesic, take the fallback
        }
        let σ = atan2(sinσ, cosσ)
        let sinα = p1.cosU * p2.cosU * sinλ / sinσ
        let cos2α = 1 - sinα * sinα
        // On the equator cos²α is 0 and the term is undefined; its limit is 0.
        let cos2σm = cos2α == 0 ? 0 : cosσ - 2 * p1.sinU * p2.sinU / cos2α
        if converged {
            let distance = ellipsoidalDistance(σ: σ, sinσ: sinσ, cosσ: cosσ, cos2σm: cos2σm, cos2α: cos2α)
            return InverseSolution(distance: distance, sinλ: sinλ, cosλ: cosλ)
        }
        let C = f / 16 * cos2α * (4 + f * (4 - 3 * cos2α))
        let next = L + (1 - C) * f * sinα * (σ + C * sinσ * (cos2σm + C * cosσ * (-1 + 2 * cos2σm * cos2σm)))
        if abs(next) > .pi { break }
        // Relative for short lines: an absolute 1e-12 rad is a large share of the λ of a 10 m segment
        // and would cost its azimuth seven digits. Once converged, one more pass evaluates the series
        // at the updated λ, whose error is f times smaller than the last step; stopping at the old λ
        // would leave a bias of about 1e-12 relative in every distance.
        converged = abs(next - λ) <= convergence * min(1, abs(next))
        λ = next
    }
    return sphericalFallback(p1, p2, L: L)
}

/// Vincenty's series for the geodesic's length from its arc σ on the auxiliary sphere.
private func ellipsoidalDistance(σ: Double, sinσ: Double, cosσ: Double, cos2σm: Double, cos2α: Double) -> Double {
    let (A, B) = seriesCoefficients(u2: cos2α * WGS84.secondEccentricitySquared)
    let Δσ = deltaSigma(B: B, sinσ: sinσ, cosσ: cosσ, cos2σm: cos2σm)
    return WGS84.b * A * (σ - Δσ)
}

/// Great-circle distance on the auxiliary sphere: finite and within 0.1 % when Vincenty diverges.
private func sphericalFallback(_ p1: ReducedPoint, _ p2: ReducedPoint, L: Double) -> InverseSolution {
    let sinλ = sin(L)
    let cosλ = cos(L)
    let x = p2.cosU * sinλ
    let y = p1.cosU * p2.sinU - p1.sinU * p2.cosU * cosλ
    let sinσ = (x * x + y * y).squareRoot()
    let cosσ = p1.sinU * p2.sinU + p1.cosU * p2.cosU * cosλ
    return InverseSolution(distance: WGS84.meanRadius * atan2(sinσ, cosσ), sinλ: sinλ, cosλ: cosλ)
}

private func solveDirect(_ p1: ReducedPoint, azimuth: Double, distance s: Double) -> Coordinate {
    let f = WGS84.f
    let α1 = radians(azimuth)
    let sinα1 = sin(α1)
    let cosα1 = cos(α1)
    let σ1 = atan2(p1.sinU, p1.cosU * cosα1)
    let sinα = p1.cosU * sinα1
    let cos2α = 1 - sinα * sinα
    let (A, B) = seriesCoefficients(u2: cos2α * WGS84.secondEccentricitySquared)
    let σ0 = s / (WGS84.b * A)
    // |B| < 0.002, so each pass shrinks the error about 500-fold and this converges in a few steps.
    var σ = σ0
    for _ in 0..<maximumIterations {
        let cos2σm = cos(2 * σ1 + σ)
        let next = σ0 + deltaSigma(B: B, sinσ: sin(σ), cosσ: cos(σ), cos2σm: cos2σm)
        let done = abs(next - σ) <= convergence
        σ = next
        if done { break }
    }
    let sinσ = sin(σ)
    let cosσ = cos(σ)
    let cos2σm = cos(2 * σ1 + σ)
    let t = p1.sinU * sinσ - p1.cosU * cosσ * cosα1
    let φ2 = atan2(p1.sinU * cosσ + p1.cosU * sinσ * cosα1, (1 - f) * (sinα * sinα + t * t).squareRoot())
    let λ = atan2(sinσ * sinα1, p1.cosU * cosσ - p1.sinU * sinσ * cosα1)
    let C = f / 16 * cos2α * (4 + f * (4 - 3 * cos2α))
    let L = λ - (1 - C) * f * sinα * (σ + C * sinσ * (cos2σm + C * cosσ * (-1 + 2 * cos2σm * cos2σm)))
    return Coordinate(latitude: degrees(φ2), longitude: remainder(p1.longitude + degrees(L), 360))
}

/// Vincenty's A and B, series in u² = e′²·cos²α.
private func seriesCoefficients(u2: Double) -> (A: Double, B: Double) {
    let A = 1 + u2 / 16384 * (4096 + u2 * (-768 + u2 * (320 - 175 * u2)))
    let B = u2 / 1024 * (256 + u2 * (-128 + u2 * (74 - 47 * u2)))
    return (A, B)
}

private func deltaSigma(B: Double, sinσ: Double, cosσ: Double, cos2σm: Double) -> Double {
    let c2 = cos2σm * cos2σm
    let correction = cosσ * (-1 + 2 * c2) - B / 6 * cos2σm * (-3 + 4 * sinσ * sinσ) * (-3 + 4 * c2)
    return B * sinσ * (cos2σm + B / 4 * correction)
}

private func radians(_ degrees: Double) -> Double { degrees * .pi / 180 }
private func degrees(_ radians: Double) -> Double { radians * 180 / .pi }
