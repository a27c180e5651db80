#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import RouteModel

/// One guess of where a rider is: a Kalman filter of distance along the course, speed, and the
/// receiver's drift east and north.
///
/// A fix is the course's point at the rider's distance plus the drift plus a little noise, so the
/// filter weighs how far along and how far across the fix is together: a guess that needs the drift
/// to chase the fixes (a rider placed on a leg they left, or standing while the fixes move on) pays
/// for it fix after fix, as Gauss-Markov drift seldom moves that steadily.
struct RideHypothesis: Sendable {
    /// Metres along the course, metres per second, and the drift in metres east and north.
    var along: Double
    var velocity: Double
    var east: Double
    var north: Double
    /// The covariance of (along, velocity, east, north), its upper triangle row by row.
    var p: Covariance
    /// Nats: how unlikely the fixes so far make this guess, against the best.
    var cost: Double
    /// The furthest along this guess has placed the rider: it never reaches further behind than
    /// noise does, so it cannot creep back along a way ridden twice.
    var furthest: Double
    /// Fixes of a little while ago (up to 12 s old, 12-24 s, and a minute or more) and where this
    /// guess placed the rider then: the way along the course since can be no shorter than the fixes
    /// moved, less what drift can do meanwhile. The oldest catches a walker: over seconds drift
    /// outruns them.
    var oldestReference: Reference?
    var olderReference: Reference?
    var reference: Reference?
    /// The pass the last fix was matched to, nil when it was taken for a spike.
    var match: RouteCourse.Match?
    /// How many fixes in a row up to the last were taken for spikes.
    var spikes = 0
    /// The last fix's stray across the way from where this guess put it, and that stray's variance.
    var stray = 0.0
    var strayVariance = 0.0

    struct Reference: Sendable {
        var clock: Double
        var along: Double
        var point: EarthPoint
        /// How much of the drift then is left now: e^(−age / correlation time), kept up fix by fix.
        var fading = 1.0
    }

    /// A symmetric 4 × 4 matrix.
    struct Covariance: Sendable {
        var ss, sv, se, sn, vv, ve, vn, ee, en, nn: Double

        static func diagonal(along: Double, velocity: Double, drift: Double) -> Covariance {
            Covariance(ss: along, sv: 0, se: 0, sn: 0, vv: velocity, ve: 0, vn: 0, ee: drift, en: 0, nn: drift)
        }
    }

    /// The way a fix is matched to: the unit vectors along and to the left of a piece, east and north.
    struct Way: Sendable {
        var te: Double
        var tn: Double
        var ne: Double { -tn }
        var nn: Double { te }
    }

    /// Moves the guess on by `seconds`: the rider by their speed, the drift fading by `fading` and
    /// gaining `fresh` variance each axis, the speed by up to `speedChange` variance.
    mutating func predict(seconds dt: Double, speedChange: Double, fading: Double, fresh: Double) {
        reference?.fading *= fading
        olderReference?.fading *= fading
        oldestReference?.fading *= fading
        along += velocity * dt
        east *= fading
        north *= fading
        var q = p
        // Along and speed: F = [[1, dt], [0, 1]], plus a change of speed spread over the interval.
        q.ss = p.ss + 2 * dt * p.sv + dt * dt * p.vv + speedChange * dt * dt / 4
        q.sv = p.sv + dt * p.vv + speedChange * dt / 2
        q.vv = p.vv + speedChange
        // Drift fades: its rows scale by `fading`, its block by its square, and fresh drift comes in.
        q.se = fading * (p.se + dt * p.ve)
        q.sn = fading * (p.sn + dt * p.vn)
        q.ve = fading * p.ve
        q.vn = fading * p.vn
        q.ee = fading * fading * p.ee + fresh
        q.en = fading * fading * p.en
        q.nn = fading * fading * p.nn + fresh
        p = q
    }

    /// What matching the fix to `match` on `way` would cost and leave, without changing the guess.
    ///
    /// The fix lies `match.side` metres to the left of the way's point at `match.along` and
    /// `match.beyond` past it (past a corner or the finish); the guess expects it at
    /// (along − match.along) along the way plus the drift, with white noise of `noise` variance each way.
    ///
    /// `logDeterminant`, when given, stands for the log of the stray's covariance determinant:
    /// nearly the same for every way a hypothesis may meet a fix, and a logarithm is dear when
    /// every piece near the fix is scored.
    func innovation(_ match: RouteCourse.Match, way: Way, noise: Double, logDeterminant: Double? = nil) -> Innovation {
        let (te, tn, ne, nn) = (way.te, way.tn, way.ne, way.nn)
        // H = [[1, 0, te, tn], [0, 0, ne, nn]]: y = z − H x with z = (beyond, side) about the point.
        let yt = match.beyond - (along - match.along) - (te * east + tn * north)
        let yn = match.side - (ne * east + nn * north)
        // P Hᵀ, column by column.
        let at = (s: p.ss + te * p.se + tn * p.sn, v: p.sv + te * p.ve + tn * p.vn, e: p.se + te * p.ee + tn * p.en, n: p.sn + te * p.en + tn * p.nn)
        let an = (s: ne * p.se + nn * p.sn, v: ne * p.ve + nn * p.vn, e: ne * p.ee + nn * p.en, n: ne * p.en + nn * p.nn)
        let stt = at.s + te * at.e + tn * at.n + noise
        let stn = an.s + te * an.e + tn * an.n
        let snn = ne * an.e + nn * an.n + noise
        let determinant = max(stt * snn - stn * stn, 1e-9)
        let cost = 0.5 * (snn * yt * yt - 2 * stn * yt * yn + stt * yn * yn) / determinant + log(2 * .pi) + 0.5 * (logDeterminant ?? log(determinant))
        return Innovation(yt: yt, yn: yn, stt: stt, stn: stn, snn: snn, determinant: determinant, at: at, an: an, cost: cost)
    }

    /// The log of the stray's covariance determinant for a way of no particular direction.
    func typicalLogDeterminant(noise: Double) -> Double {
        let drift = (p.ee + p.nn) / 2
        return log((p.ss + drift + noise) * (drift + noise))
    }

    /// The fix's residuals along and across the way, their covariance, and P Hᵀ, for an update.
    struct Innovation: Sendable {
        var yt, yn: Double
        var stt, stn, snn, determinant: Double
        var at: (s: Double, v: Double, e: Double, n: Double)
        var an: (s: Double, v: Double, e: Double, n: Double)
        /// Nats: −log of the fix's likelihood under the guess.
        var cost: Double
    }

    /// The Kalman gain, along and across the way, of the state whose row of P Hᵀ is (`t`, `n`).
    private static func gain(_ i: Innovation, _ t: Double, _ n: Double) -> (Double, Double) {
        ((t * i.snn - n * i.stn) / i.determinant, (n * i.stt - t * i.stn) / i.determinant)
    }

    /// Where correcting by `i` would put the rider along the course, without correcting.
    func along(correctedBy i: Innovation) -> Double {
        let k = Self.gain(i, i.at.s, i.an.s)
        return along + k.0 * i.yt + k.1 * i.yn
    }

    /// Corrects the guess by an innovation from `innovation(_:way:noise:)`.
    mutating func correct(_ i: Innovation) {
        // K = P Hᵀ S⁻¹, row by row.
        let ks = Self.gain(i, i.at.s, i.an.s)
        let kv = Self.gain(i, i.at.v, i.an.v)
        let ke = Self.gain(i, i.at.e, i.an.e)
        let kn = Self.gain(i, i.at.n, i.an.n)
        along += ks.0 * i.yt + ks.1 * i.yn
        velocity += kv.0 * i.yt + kv.1 * i.yn
        east += ke.0 * i.yt + ke.1 * i.yn
        north += kn.0 * i.yt + kn.1 * i.yn
        // P −= K (P Hᵀ)ᵀ.
        p.ss -= ks.0 * i.at.s + ks.1 * i.an.s
        p.sv -= ks.0 * i.at.v + ks.1 * i.an.v
        p.se -= ks.0 * i.at.e + ks.1 * i.an.e
        p.sn -= ks.0 * i.at.n + ks.1 * i.an.n
        p.vv -= kv.0 * i.at.v + kv.1 * i.an.v
        p.ve -= kv.0 * i.at.e + kv.1 * i.an.e
        p.vn -= kv.0 * i.at.n + kv.1 * i.an.n
        p.ee -= ke.0 * i.at.e + ke.1 * i.an.e
        p.en -= ke.0 * i.at.n + ke.1 * i.an.n
        p.nn -= kn.0 * i.at.n + kn.1 * i.an.n
        p.ss = max(p.ss, 1e-6)
        p.vv = max(p.vv, 1e-6)
        p.ee = max(p.ee, 1e-6)
        p.nn = max(p.nn, 1e-6)
    }

    /// Corrects the speed by the receiver's, of `variance`.
    mutating func correct(speed: Double, variance: Double) {
        let s = p.vv + variance
        let innovation = speed - velocity
        let k = (s: p.sv / s, v: p.vv / s, e: p.ve / s, n: p.vn / s)
        along += k.s * innovation
        velocity += k.v * innovation
        east += k.e * innovation
        north += k.n * innovation
        let row = (s: p.sv, v: p.vv, e: p.ve, n: p.vn)
        p.ss -= k.s * row.s
        p.sv -= k.s * row.v
        p.se -= k.s * row.e
        p.sn -= k.s * row.n
        p.vv -= k.v * row.v
        p.ve -= k.v * row.e
        p.vn -= k.v * row.n
        p.ee -= k.e * row.e
        p.en -= k.e * row.n
        p.nn -= k.n * row.n
        p.vv = max(p.vv, 1e-6)
    }

    /// Keeps the drift within `limit` metres: drift is rarely beyond 3σ, and a fix further out is
    /// the rider leaving, not the receiver.
    mutating func limitDrift(to limit: Double) {
        let reach = (east * east + north * north).squareRoot()
        guard reach > limit else { return }
        east *= limit / reach
        north *= limit / reach
    }
}
