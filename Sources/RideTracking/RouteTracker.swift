#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
public import RouteModel

/// Follows one rider along a course, fix after fix: where on the course, how far done and to go,
/// and whether still on it.
///
/// It matches forwards only, as hidden-Markov map matching does (Newson & Krumm, 2009), with no
/// look-ahead. It keeps a few hypotheses of where the rider is, each a Kalman filter of distance
/// along the course, speed, and the receiver's drift (`RideHypothesis`). A fix is matched to the
/// places on the course that each hypothesis can reach in the time since the last fix (a leg
/// kilometres ahead or behind never can, nor further behind than noise reaches), or to none, as a
/// spike. The cheapest hypotheses live on, so a wrong guess at a hairpin or a lap line dies a few
/// fixes later instead of dragging the rider onto the other leg.
///
/// Off the course means the fix strays further across the way than the receiver's drift of the
/// last half minute explains, two fixes in a row on one side. Off it, the rider is found again on
/// the earliest pass within reach of where they left it.
public struct RouteTracker: Sendable {
    /// How a tracker judges fixes.
    public struct Options: Sendable, Equatable {
        /// The least threshold, in metres: a fix this near where the drift puts it is on the course.
        public var threshold = 30.0
        /// The least and most any threshold may be, in metres.
        public var thresholdRange: ClosedRange<Double> = 20...100
        /// Rejoining in one fix needs the stray under this share of the threshold.
        public var rejoinShare = 2.0 / 3.0
        /// A fix's drift, 1σ each axis in metres, until the ride shows its own.
        public var assumedNoise = 15.0
        /// Seconds over which a receiver's drift decorrelates, until the ride shows its own.
        public var driftTime = 40.0
        /// How quickly a rider's speed changes, 1σ, in metres per second per second.
        public var acceleration = 1.5
        /// The most a rider's speed changes across a gap, 1σ, as a share of the speed (at least 0.5 m/s).
        public var speedChangeShare = 0.3
        /// The fastest anyone rides, in metres per second: how far a fix can be from the last.
        public var maximumSpeed = 30.0
        /// How many standard deviations a fix may stray across the way before it is over the threshold.
        public var strayLimit = 3.5

        public init() {}
    }

    public let course: RouteCourse
    public let options: Options
    /// What the tracker knows between fixes, once it has had one.
    private(set) var storage: StateStorage?
    private var converter = EarthPoint.Converter()
    /// Reused between fixes: the pieces near a fix and the passes they make, the hypotheses moved
    /// on, their branches, and the cheapest place of each stretch of a reach.
    var nearby: [RouteCourse.Match] = []
    /// Each nearby piece's way on the ground, worked out once for every hypothesis that meets it.
    var nearbyWays: [RideHypothesis.Way] = []
    var passes: [RouteCourse.Match] = []
    var predicted: [RideHypothesis] = []
    var shortfalls: [Shortfall] = []
    /// How far along each hypothesis may have got since the last fix.
    var reaches: [Double] = []
    /// The hypothesis each of `predicted` was moved on from.
    var origins: [Int] = []
    var candidates: [Candidate] = []
    var stretches: [(index: Int, cost: Double, along: Double)] = []

    /// The most hypotheses kept.
    static let maximumHypotheses = 3
    /// The most stretches of a hypothesis's reach each offering its cheapest place.
    static let maximumStretches = 12
    /// Nats beyond the cheapest place at which a stretch's cheapest is no longer worth a branch.
    static let alternativeCost = 12.0
    /// Nats beyond the best at which a hypothesis is dropped.
    static let hopeless = 20.0
    /// Cost, in nats, of starting a hypothesis's filter again at a place it did not expect.
    static let resetCost = 12.0
    /// Metres along the course a restart may land from where the filter expected the rider for each nat it costs.
    static let restartReach = 25.0
    /// Cost, in nats, of taking a fix for a spike beyond what a well-placed fix costs.
    static let spikeCost = 8.0
    /// Beyond this gap in seconds, a rider may have stopped or been carried: nearer places are then
    /// likelier than where riding on would have put them.
    static let longGap = 15.0
    /// Beyond this gap in seconds the rider is found again as after leaving the course: on the
    /// earliest pass within reach, since what they did in between (rode, stopped, were carried to
    /// the next stage) cannot be told, and a place passed twice is then the first pass.
    static let lostGap = 60.0
    /// Back on the course within this many seconds of leaving, the hypotheses of before carry on:
    /// a brief stray is no reason to forget which leg the rider was on.
    static let resumeWithin = 30.0
    /// Fixes on the course after finding the rider again before that placing is sure.
    static let firmAfter = 10
    /// Seconds after which a hypothesis's reference moves on to the current fix.
    static let referenceAge = 12.0
    /// A likeliest guess slower than this (m/s), without the phone's speed, also meets each fix as
    /// a rider setting off: its speed may change by `setOffChange` m/s (1σ) in the step, for
    /// `setOffCost` nats. Ride lab, 180 turn rides: 0.5 nats and 6 m/s cured the three riders who
    /// stood at the turn and rode back (lagging 40-59 m); 1-3 nats or 2.5-5 m/s cured fewer.
    static let setOffBelow = 1.0
    static let setOffChange = 6.0
    static let setOffCost = 0.5
    /// Of riders after a long gap, the share who rode on (the others stopped somewhere on the way).
    static let rodeOn = 0.8
    /// How much faster than its speed a hypothesis's rider may have gone since the last fix: this
    /// many times the speed's spread, and at least so many metres a second more.
    static let reachSpreads = 6.0
    static let reachFaster = 10.0

    /// What the tracker knows between fixes.
    struct State: Sendable {
        var hypotheses: [RideHypothesis]
        /// When the hypotheses last met a fix (the time, or the fix's count without times).
        var hypothesesClock = 0.0
        /// When the rider last left the course with hypotheses worth resuming, nil once resumed or
        /// after a gap: one departure, one resumption, so a guess that cannot meet the fixes is not
        /// brought back fix after fix.
        var leftClock: Double?
        var time: Double?
        /// Where the last fix was.
        var lastPoint: EarthPoint
        var noise: ReceiverNoise
        var history = DriftHistory()
        /// The drift while off the course, as it was before the rider left: east, north and their variance.
        var offDrift: (east: Double, north: Double, variance: Double, time: Double?)
        var onRoute: Bool
        /// Whether a fix has been placed on the course yet, and by how many fixes since.
        var placed: Bool
        var confirmations = 0
        /// Where the rider was last on the course, for finding them again, and when.
        var anchor: Double
        var anchorTime: Double?
        /// Where the rider was last surely on the course, while a placing since leaving it is not yet
        /// sure (fewer than `firmAfter` fixes on it): a detour that passes near another part of the
        /// course must not move the search past where the rider left.
        var firmAnchor: Double?
        var sinceRejoin = 0
        /// The fixes of the last `Trail.seconds` off the course, for telling a rider back on it.
        var trail = Trail()
        /// Fixes on the course of the last `Trail.seconds`, one each `movedSpacing` s, for telling a
        /// rider leaving by how the fixes moved.
        var moved = Trail(spacing: RouteTracker.movedSpacing)
        /// The side of the way (+1 left, −1 right) the rider last left the course to, from where
        /// they were surely on it, and when they were last found again.
        var leftSide = 0.0
        var rejoinClock = -Double.infinity
        /// Metres the fixes moved since the anchor, for fixes without time.
        var movedSinceAnchor = 0.0
        /// The distance along reported last, and the piece it lies on.
        var along: Double
        var piece = 0
        /// Consecutive fixes over the threshold on one side, and which.
        var overCount = 0
        var overSide = 0.0
        /// The last fix over the threshold, and when.
        var overPoint: (point: EarthPoint, clock: Double)?
        /// Whether the rider is being found again after a gap rather than after leaving the course:
        /// then one fix within the threshold is enough.
        var resuming = false
        /// Where the rider was when a long gap in the fixes began, for finding them again after it.
        var lost: GapPrior.Lost?
        var atStart = false
        var started = false
        var stagesFinished = 0
        var finished = false
    }

    /// A tracker for `course`, before its first fix.
    public init(course: RouteCourse, options: Options = Options()) {
        self.course = course
        self.options = options
        nearby.reserveCapacity(64)
        nearbyWays.reserveCapacity(64)
        passes.reserveCapacity(RouteCourse.maximumPasses)
        predicted.reserveCapacity(Self.maximumHypotheses)
        shortfalls.reserveCapacity(Self.maximumHypotheses)
        reaches.reserveCapacity(Self.maximumHypotheses)
        candidates.reserveCapacity(Self.maximumHypotheses * (Self.maximumStretches + RouteCourse.maximumPasses + 1))
        stretches = Array(repeating: (-1, .infinity, 0), count: Self.maximumStretches)
    }

    /// The threshold a fix's offset is held to at least: the larger of `threshold`, 1.5 × accuracy
    /// and 2 s at its speed, within `thresholdRange`.
    public func threshold(for fix: Fix) -> Double {
        let byAccuracy = (fix.accuracy ?? 0) * 1.5
        let bySpeed = (fix.speed ?? 0) * 2
        return min(max(byAccuracy, bySpeed, options.threshold, options.thresholdRange.lowerBound), options.thresholdRange.upperBound)
    }

    /// Where the rider is at `fix`, which must come no earlier than the last fix.
    /// - Throws: `FixError` for a fix that cannot be followed; the tracker is then as before it.
    public mutating func update(_ fix: Fix) throws(FixError) -> RouteProgress {
        let fix = try fix.checked(after: storage?.value.time)
        let point = converter.point(fix.coordinate)
        guard let box = takeStorage() else {
            let noise = ReceiverNoise(noise: options.assumedNoise, correlationTime: options.driftTime)
            let sigma = noise.sigma(claimed: fix.accuracy.map { $0 / 1.5 })
            var fresh = State(
                hypotheses: [], time: fix.time, lastPoint: point, noise: noise, offDrift: (0, 0, noise.driftShare * sigma * sigma, fix.time), onRoute: false,
                placed: false, anchor: 0, anchorTime: fix.time, along: 0)
            let progress = follow(fix, at: point, seconds: nil, moved: 0, state: &fresh)
            storage = StateStorage(fresh)
            return progress
        }
        let seconds: Double? = if let time = fix.time, let last = box.value.time { time - last } else { nil }
        let moved = box.value.lastPoint.distance(to: point)
        let progress = follow(fix, at: point, seconds: seconds, moved: moved, state: &box.value)
        storage = box
        return progress
    }

    /// Offers the tracker one more guess: the rider `along` metres along the course at the last fix,
    /// riding at `speed`, with the drift that puts the last fix where it was, `extraCost` nats
    /// dearer than the likeliest guess. For measuring the search, not for riding: the ride report
    /// hands the tracker the truth this way to see what a perfect search would gain. Nothing is
    /// offered off the course, or where a guess within 10 m stands already.
    package mutating func offer(along: Double, speed: Double, extraCost: Double) {
        guard let state = storage?.value, state.onRoute, var guess = state.hypotheses.first,
            !state.hypotheses.contains(where: { abs($0.along - along) < 10 })
        else { return }
        let frame = LocalFrame(state.lastPoint)
        let drift = state.lastPoint - course.point(atDistance: along)
        let sigma = state.noise.sigma(claimed: nil)
        guess.along = along
        guess.furthest = along
        guess.velocity = speed
        (guess.east, guess.north) = (drift.dot(frame.east), drift.dot(frame.north))
        // Sure of the place and the speed; of the drift, as the last fix shows it.
        guess.p = .diagonal(along: 4, velocity: 0.25, drift: 0.2 * state.noise.driftShare * sigma * sigma)
        guess.cost = extraCost
        (guess.reference, guess.olderReference, guess.oldestReference) = (nil, nil, nil)
        guess.match = nil
        guess.spikes = 0
        guard let box = takeStorage() else { return }
        if box.value.hypotheses.count >= Self.maximumHypotheses { box.value.hypotheses.removeLast() }
        box.value.hypotheses.append(guess)
        storage = box
    }

    /// The state's storage, taken out to be written and this tracker's own: copied on write, as a
    /// collection's storage is, so a copy of the tracker follows on its own. Nil before the first fix.
    private mutating func takeStorage() -> StateStorage? {
        guard var box = storage.take() else { return nil }
        if !isKnownUniquelyReferenced(&box) { box = StateStorage(box.value) }
        return box
    }

    /// The state behind a reference: a fix changes it where it lies, where copying its few hundred
    /// bytes out and back took a twentieth of a fix's time.
    final class StateStorage: @unchecked Sendable {
        // Unchecked: only `update` and `offer` write it (the setter is this file's), and only once
        // they hold the sole reference.
        fileprivate(set) var value: State

        init(_ value: State) {
            self.value = value
        }
    }

    /// What one fix asks of the tracker, worked out once.
    struct Context {
        var fix: Fix
        var point: EarthPoint
        var frame: LocalFrame
        var seconds: Double?
        var moved: Double
        /// The fixes' spread across the way (σ, drift and white noise together), and the drift's and
        /// the white noise's variance.
        var sigma: Double
        var drift: Double
        var white: Double
        /// Seconds over which the drift decorrelates.
        var correlationTime: Double
        /// Metres behind where the rider was that noise can place a fix (for finding them again), and
        /// behind the furthest a hypothesis reached that it may go (less: its drift takes the rest).
        var back: Double
        var retreat: Double
        /// The least threshold, and the zone about a start or an end.
        var floor: Double
        var zone: Double
        /// Metres from the fix that drift reaches: the course further away is no place for it.
        var radius: Double
        /// Metres the fastest rider could have gone since the last fix.
        var reach: Double
        /// The time, or the fix's count without times.
        var clock: Double
        /// What every restart costs, in nats, before its distance and offset.
        var restartBase: Double

        /// The spread (1σ) of how far two fixes differ across a way when the drift of the first has
        /// `fading` of it left at the second: the drift's change, and both fixes' white noise.
        func changeSpread(fading: Double) -> Double {
            (2 * drift * (1 - fading) + 2 * white).squareRoot()
        }

        /// The same for fixes `age` seconds apart.
        func changeSpread(over age: Double) -> Double {
            changeSpread(fading: exp(-age / correlationTime))
        }
    }

    mutating func follow(_ fix: Fix, at point: EarthPoint, seconds: Double?, moved: Double, state: inout State) -> RouteProgress {
        let sigma = state.noise.sigma(claimed: fix.accuracy.map { $0 / 1.5 })
        let drift = state.noise.driftShare * sigma * sigma
        let white = max(sigma * sigma - drift, 1)
        let clock = fix.time ?? ((state.time ?? 0) + 1)
        let context = Context(
            fix: fix, point: point, frame: LocalFrame(point), seconds: seconds, moved: moved, sigma: sigma, drift: drift, white: white,
            correlationTime: state.noise.correlationTime,
            back: 3 * sigma + 10, retreat: sigma + 10, floor: threshold(for: fix), zone: max(30, 2.5 * sigma), radius: 3 * sigma + 15,
            reach: seconds.map { options.maximumSpeed * $0 } ?? 2 * moved, clock: clock,
            restartBase: Self.resetCost + log(2 * .pi * (drift + white)))
        state.time = fix.time ?? state.time
        state.lastPoint = point
        state.movedSinceAnchor = state.onRoute ? 0 : state.movedSinceAnchor + moved
        if state.onRoute, let seconds, seconds > Self.lostGap, let best = state.hypotheses.first {
            // Lost for a while: look again from where the rider was.
            state.onRoute = false
            state.resuming = true
            state.lost = GapPrior.Lost(along: best.along, speed: best.velocity, speedVariance: best.p.vv, clock: context.clock - seconds)
            state.leftClock = nil
            state.anchor = best.along
            state.offDrift = (best.east, best.north, max(best.p.ee, best.p.nn), context.clock - seconds)
            state.history.removeAll()
        }
        return state.onRoute ? onCourse(context, state: &state) : search(context, state: &state)
    }

    /// The threshold for a stray of `spread` (1σ): `strayLimit` of them, at least the floor, at
    /// most `thresholdRange`'s upper bound.
    func limit(floor: Double, spread: Double) -> Double {
        min(max(options.strayLimit * spread, floor), options.thresholdRange.upperBound)
    }

    /// The nearest pass within `reach` metres along of a hypothesis that took the fix for a spike.
    func nearestPass(from along: Double, within reach: Double) -> RouteCourse.Match? {
        var nearest: RouteCourse.Match? = nil
        for pass in passes where abs(pass.along - along) <= reach {
            if nearest.map({ pass.offset < $0.offset }) ?? true { nearest = pass }
        }
        return nearest
    }

    /// The progress at the state's place, with the events this fix brings.
    ///
    /// The start has a zone about it as wide as drift reaches (`zone` metres), so a rider standing
    /// there is not taken for one setting off; each end a narrower one, so a finish is not called
    /// before the rider is there.
    ///
    /// The offset is the fix's distance to the course about the rider: to the nearest of the
    /// pieces met near the fix and the place reported. So it is never more than to the place
    /// reported and, being a distance to the course, never less than to its nearest point.
    func report(_ state: inout State, at point: EarthPoint, threshold: Double, zone: Double) -> RouteProgress {
        let along = min(max(state.along, 0), course.length)
        state.piece = course.pieceIndex(atDistance: along, hint: state.piece)
        let toReported = point.distance(to: course.point(atDistance: along, piece: state.piece))
        var offset = toReported
        for match in nearby where match.offset < offset { offset = match.offset }
        let (snapped, stage) = course.place(atDistance: along, piece: state.piece)
        let stageStart = course.stageStarts[stage - 1]
        let stageLength = course.stageLengths[stage - 1]
        var event: RouteProgress.Event? = nil
        let endZone = zone * 0.6
        if state.onRoute {
            if along <= zone {
                state.atStart = true
            } else if state.atStart && !state.started {
                state.started = true
                event = .start
            }
            // A stage is finished within the zone of its end; the last stage's end is the finish.
            while state.stagesFinished < course.stageLengths.count,
                along >= course.stageStarts[state.stagesFinished] + course.stageLengths[state.stagesFinished] - endZone
            {
                state.stagesFinished += 1
                if state.stagesFinished == course.stageLengths.count {
                    if !state.finished {
                        state.finished = true
                        event = .finish
                    }
                } else if along < course.stageStarts[state.stagesFinished] + course.stageLengths[state.stagesFinished] - endZone {
                    event = .stageFinish
                }
            }
        }
        return RouteProgress(
            snapped: snapped, distance: along, remaining: max(course.length - along, 0), stage: stage,
            stageDistance: min(max(along - stageStart, 0), stageLength), stageRemaining: max(stageStart + stageLength - along, 0),
            offset: offset, onRoute: state.onRoute, threshold: threshold, event: event)
    }
}
