#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import RouteModel

/// What a ride shows of its receiver, learned from the fixes on the course so thresholds follow
/// the receiver, not its claims: how far fixes stray across the way, and how much of that lasts
/// from fix to fix (drift) rather than changing every fix (white noise).
///
/// The two are told apart by how alike successive fixes' strays are: drift moves them together,
/// white noise independently. A filter that took white noise for drift would chase every fix.
/// How alike strays 20 s apart still are says how fast the drift fades: slow drift held for
/// minutes explains much that fast drift cannot, and the other way round.
struct ReceiverNoise: Sendable {
    /// The spread of fixes across the way, drift and white noise together, m².
    private(set) var spreadVariance: Double
    /// The spread and the covariance of successive fixes' strays (as if no time apart), over the
    /// last minutes: their ratio is the drift's share of the spread.
    private var recent: (spread: Double, lasting: Double)
    /// The last fix learned from: its stray across the way, the way's left, and when.
    private var last: (side: Double, normal: (east: Double, north: Double), clock: Double)?

    /// The weight of a new fix in each spread, for fixes `seconds` apart; and how much drift is left
    /// after the time between the fixes learned from.
    private var weights = (seconds: -1.0, spread: 0.0, share: 0.0)
    private var fading = (seconds: -1.0, value: 1.0, time: 0.0)

    /// Strays of the last half minute, one every few seconds, for how fast the drift fades.
    private var earlier: [(side: Double, normal: (east: Double, north: Double), clock: Double)] = []
    /// Over ten minutes, the covariance of successive fixes' strays and of strays about `farLag`
    /// seconds apart, each with its mean time apart: how fast the drift decorrelates.
    private var lags: (near: Double, nearLag: Double, far: Double, farLag: Double)
    /// Seconds over which the drift decorrelates, as the ride shows it.
    private(set) var correlationTime: Double
    /// Strays this far apart (give or take `within`) say how fast the drift fades; one is kept
    /// every `spacing` seconds, `kept` of them.
    static let farLag = (seconds: 20.0, within: 5.0, spacing: 4.0, kept: 8)
    /// The correlation times a ride may show, in seconds: learned from minutes of fixes, the
    /// estimate is rough, and outside this range it is more often noise than the receiver.
    static let correlationRange = 20.0...120.0

    /// Seconds over which the spread, and the drift's share of it, are learned.
    static let learningTime = (spread: 600.0, share: 120.0)
    static let shareFixes = 60
    /// Fixes further apart than this, in seconds, or on ways further from parallel than this
    /// cosine, say little of how alike successive strays are.
    static let neighbours = (seconds: 10.0, cosine: 0.9)

    init(noise: Double, correlationTime: Double) {
        spreadVariance = noise * noise
        // Until the ride shows otherwise, most of the spread is taken for drift, fading over `correlationTime`.
        recent = (noise * noise, 0.7 * noise * noise)
        self.correlationTime = correlationTime
        let farLag = Self.farLag.seconds
        lags = (0.7 * noise * noise * exp(-1 / correlationTime), 1, 0.7 * noise * noise * exp(-farLag / correlationTime), farLag)
        earlier.reserveCapacity(Self.farLag.kept)
    }

    /// The fixes' spread across the way, σ in metres: what the ride has shown, or what the receiver claims if more.
    func sigma(claimed: Double?) -> Double {
        max(spreadVariance.squareRoot(), claimed ?? 0, 3)
    }

    /// The share of the spread that is drift, from a twentieth to all but a hundredth.
    var driftShare: Double {
        min(max(recent.lasting / max(recent.spread, 1), 0.05), 0.99)
    }

    /// Learns from a fix on the course `side` metres across the way (whose left is `normal`) at
    /// `clock`, `residual` from where the filter put it with `expected` variance, `seconds` after
    /// the last fix.
    mutating func learn(side: Double, residual: Double, expected: Double, normal: (east: Double, north: Double), clock: Double, seconds: Double) {
        // Each clipped at 2.5σ, and learnt only from fixes the filter explains, so neither a spike
        // that slipped through nor a rider drifting off the course can swell them (a threshold grown
        // from a departure would let the next departure through).
        guard residual * residual <= 4 * expected else { return }
        let sigma = sigma(claimed: nil)
        let clip = 6.25 * sigma * sigma
        if seconds != weights.seconds {
            // Fixes mostly come at one rate: the weights are worked out when it changes.
            let step = max(seconds, 0.2)
            // The share is learned over a couple of minutes, and over no fewer than `shareFixes` fixes: from
            // fewer, how alike two fixes are is itself too noisy to tell drift from white noise.
            let shareTime = max(Self.learningTime.share, Double(Self.shareFixes) * step)
            weights = (seconds, 1 - exp(-step / Self.learningTime.spread), 1 - exp(-step / shareTime))
        }
        let square = min(side * side, clip)
        // Clipping a Gaussian at 2.5σ keeps 96.7% of its variance.
        spreadVariance += weights.spread * (square / 0.967 - spreadVariance)
        recent.spread += weights.share * (square - recent.spread)
        if let last, clock - last.clock <= Self.neighbours.seconds,
            case let cosine = normal.east * last.normal.east + normal.north * last.normal.north, cosine >= Self.neighbours.cosine
        {
            let apart = clock - last.clock
            if apart != fading.seconds || correlationTime != fading.time { fading = (apart, exp(-apart / correlationTime), correlationTime) }
            let product = min(max(side * last.side * cosine, -clip), clip)
            recent.lasting += weights.share * (product / fading.value - recent.lasting)
            lags.near += weights.spread * (product - lags.near)
            lags.nearLag += weights.spread * (apart - lags.nearLag)
        }
        last = (side, normal, clock)
        learnFading(side: side, normal: normal, clock: clock, clip: clip)
    }

    /// Learns how fast the drift fades from strays about `farLag` seconds apart against successive
    /// ones; the correlation time is worked out again each time a stray is kept.
    private mutating func learnFading(side: Double, normal: (east: Double, north: Double), clock: Double, clip: Double) {
        if let far = earlier.first(where: { abs(clock - $0.clock - Self.farLag.seconds) <= Self.farLag.within }),
            case let cosine = normal.east * far.normal.east + normal.north * far.normal.north, cosine >= Self.neighbours.cosine
        {
            let product = min(max(side * far.side * cosine, -clip), clip)
            lags.far += weights.spread * (product - lags.far)
            lags.farLag += weights.spread * (clock - far.clock - lags.farLag)
        }
        guard earlier.last.map({ clock - $0.clock >= Self.farLag.spacing }) ?? true else { return }
        // C(near) / C(far) = e^((far − near) / T).
        let ratio = lags.far / max(lags.near, 1e-9)
        let time = lags.near > 0 && ratio > 0 && ratio < 1 ? (lags.farLag - lags.nearLag) / -log(ratio) : (ratio >= 1 ? .infinity : 0)
        correlationTime = min(max(time, Self.correlationRange.lowerBound), Self.correlationRange.upperBound)
        if earlier.count == Self.farLag.kept { earlier.removeFirst() }
        earlier.append((side, normal, clock))
    }
}

/// The drift of the last half minute, a snapshot every few seconds, to tell a rider leaving the
/// course from drift: drift moves fixes off the way slowly, a rider leaving moves them tens of
/// metres in seconds, further than the drift of a moment ago can explain however it wandered since.
struct DriftHistory: Sendable {
    struct Snapshot: Sendable {
        var time: Double
        var east: Double
        var north: Double
        var ee: Double
        var en: Double
        var nn: Double
    }

    /// Seconds between snapshots, and how many are kept.
    static let spacing = 5.0
    static let count = 6

    private var snapshots: [Snapshot] = []
    /// How much of each snapshot's drift is left at the newest, e^(−(newest − then) / T), and the
    /// correlation time T they are for (0 when they need working out again): the drift's fading
    /// is then one exponential a fix, not one a snapshot.
    private var decays: [Double] = []
    private var decaysCorrelationTime = 0.0

    init() {
        snapshots.reserveCapacity(Self.count)
        decays.reserveCapacity(Self.count)
    }

    /// Keeps the drift at `time` when the last snapshot is `spacing` seconds old.
    mutating func record(_ snapshot: Snapshot) {
        if let last = snapshots.last, snapshot.time - last.time < Self.spacing { return }
        if snapshots.count == Self.count { snapshots.removeFirst() }
        snapshots.append(snapshot)
        decaysCorrelationTime = 0
    }

    mutating func removeAll() {
        snapshots.removeAll(keepingCapacity: true)
        decaysCorrelationTime = 0
    }

    /// The oldest snapshot kept, at least `minimumAge` seconds before `time`.
    func oldest(before time: Double, minimumAge: Double) -> Snapshot? {
        snapshots.first { time - $0.time >= minimumAge }
    }

    /// The most a fix `side` metres across a way whose left is `normal` strays from any snapshot's
    /// drift, carried forward to `time` (fading over `correlationTime`, with `drift` variance fresh
    /// each axis and `white` noise), in units of its spread; and that spread.
    mutating func largestStray(
        side: Double, normal: (east: Double, north: Double), time: Double, correlationTime: Double, drift: Double, white: Double
    ) -> (stray: Double, spread: Double)? {
        guard let newest = snapshots.last else { return nil }
        if decaysCorrelationTime != correlationTime {
            decays.removeAll(keepingCapacity: true)
            for snapshot in snapshots { decays.append(exp(-(newest.time - snapshot.time) / correlationTime)) }
            decaysCorrelationTime = correlationTime
        }
        let sinceNewest = exp(-max(time - newest.time, 0) / correlationTime)
        // Compared squared, stray² · variance crosswise: no root or division in the loop.
        var largest: (stray: Double, variance: Double)? = nil
        for (index, snapshot) in snapshots.enumerated() {
            let fading = sinceNewest * decays[index]
            let expected = fading * (normal.east * snapshot.east + normal.north * snapshot.north)
            let carried = normal.east * normal.east * snapshot.ee + 2 * normal.east * normal.north * snapshot.en + normal.north * normal.north * snapshot.nn
            let variance = fading * fading * carried + drift * (1 - fading * fading) + white
            let stray = side - expected
            if largest.map({ stray * stray * $0.variance > $0.stray * $0.stray * variance }) ?? true {
                largest = (stray, variance)
            }
        }
        return largest.map { ($0.stray, $0.variance.squareRoot()) }
    }
}
