#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import RouteModel

/// What a ride shows of its receiver, learned from the fixes on the course so thresholds follow
/// the receiver, not its claims: how far its drift reaches, and the white noise about the drift.
struct ReceiverNoise: Sendable {
    /// The spread of the drift across the way, m².
    private(set) var driftVariance: Double
    /// The white noise about the drift, each way, m².
    private(set) var whiteVariance: Double

    /// The weight of a new fix in each spread, for fixes `seconds` apart.
    private var weights = (seconds: -1.0, drift: 0.0, white: 0.0)

    /// Seconds over which the spreads are learned.
    static let learningTime = (drift: 600.0, white: 60.0)

    init(noise: Double) {
        driftVariance = noise * noise
        whiteVariance = 9
    }

    /// The drift's σ, each axis, in metres: what the ride has shown, or what the receiver claims if more.
    func sigma(claimed: Double?) -> Double {
        max(driftVariance.squareRoot(), claimed ?? 0, 3)
    }

    /// Learns from a fix on the course `side` metres across the way, `residual` from where the drift
    /// put it, whose variance the filter expected to be `expected` (the filter's own part of it
    /// `expected` − white), `seconds` after the last.
    mutating func learn(side: Double, residual: Double, expected: Double, seconds: Double, claimed: Double?) {
        // Each clipped at 2.5σ, and learnt only from fixes the drift explains, so neither a spike
        // that slipped through nor a rider drifting off the course can swell them (a threshold grown
        // from a departure would let the next departure through).
        guard residual * residual <= 4 * expected else { return }
        let sigma = sigma(claimed: nil)
        if seconds != weights.seconds {
            // Fixes mostly come at one rate: the weights are worked out when it changes.
            let step = max(seconds, 0.2)
            weights = (seconds, 1 - exp(-step / Self.learningTime.drift), 1 - exp(-step / Self.learningTime.white))
        }
        // Clipping a Gaussian at 2.5σ keeps 96.7% of its variance.
        driftVariance += weights.drift * (min(side * side, 6.25 * sigma * sigma) / 0.967 - driftVariance)
        let white = min(residual * residual, 6.25 * expected) - (expected - whiteVariance)
        whiteVariance = min(max(whiteVariance + weights.white * (white - whiteVariance), 1), 400)
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

    init() {
        snapshots.reserveCapacity(Self.count)
    }

    /// Keeps the drift at `time` when the last snapshot is `spacing` seconds old.
    mutating func record(_ snapshot: Snapshot) {
        if let last = snapshots.last, snapshot.time - last.time < Self.spacing { return }
        if snapshots.count == Self.count { snapshots.removeFirst() }
        snapshots.append(snapshot)
    }

    mutating func removeAll() {
        snapshots.removeAll(keepingCapacity: true)
    }

    /// The oldest snapshot kept, at least `minimumAge` seconds before `time`.
    func oldest(before time: Double, minimumAge: Double) -> Snapshot? {
        snapshots.first { time - $0.time >= minimumAge }
    }

    /// The most a fix `side` metres across a way whose left is `normal` strays from any snapshot's
    /// drift, carried forward to `time` (fading over `correlationTime`, with `sigma`² fresh each axis
    /// and `white` noise), in units of its spread; and that spread.
    func largestStray(
        side: Double, normal: (east: Double, north: Double), time: Double, correlationTime: Double, sigma: Double, white: Double
    ) -> (stray: Double, spread: Double)? {
        var largest: (stray: Double, spread: Double)? = nil
        for snapshot in snapshots {
            let age = max(time - snapshot.time, 0)
            let fading = exp(-age / correlationTime)
            let expected = fading * (normal.east * snapshot.east + normal.north * snapshot.north)
            let carried = normal.east * normal.east * snapshot.ee + 2 * normal.east * normal.north * snapshot.en + normal.north * normal.north * snapshot.nn
            let variance = fading * fading * carried + sigma * sigma * (1 - fading * fading) + white
            let stray = side - expected
            let spread = variance.squareRoot()
            if largest.map({ abs(stray) / spread > abs($0.stray) / $0.spread }) ?? true {
                largest = (stray, spread)
            }
        }
        return largest
    }
}
