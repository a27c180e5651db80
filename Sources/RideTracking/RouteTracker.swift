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
        guard var box = storage.take() else {
            let noise = ReceiverNoise(noise: options.assumedNoise, correlationTime: options.driftTime)
            let sigma = noise.sigma(claimed: fix.accuracy.map { $0 / 1.5 })
            var fresh = State(
                hypotheses: [], time: fix.time, lastPoint: point, noise: noise, offDrift: (0, 0, noise.driftShare * sigma * sigma, fix.time), onRoute: false,
                placed: false, anchor: 0, anchorTime: fix.time, along: 0)
            let progress = follow(fix, at: point, seconds: nil, moved: 0, state: &fresh)
            storage = StateStorage(fresh)
            return progress
        }
        // Copied on write, as a collection's storage is: a copy of the tracker follows on its own.
        if !isKnownUniquelyReferenced(&box) { box = StateStorage(box.value) }
        let seconds: Double? = if let time = fix.time, let last = box.value.time { time - last } else { nil }
        let moved = box.value.lastPoint.distance(to: point)
        let progress = follow(fix, at: point, seconds: seconds, moved: moved, state: &box.value)
        storage = box
        return progress
    }

    /// The state behind a reference: a fix changes it where it lies, where copying its few hundred
    /// bytes out and back took a twentieth of a fix's time.
    final class StateStorage: @unchecked Sendable {
        // Unchecked: only `update` writes it (the setter is this file's), and only once it holds
        // the sole reference.
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


    /// What matching a fix to `match` would cost a hypothesis: the fix's likelihood under it, and
    /// how likely the rider went from `previous` to there.
    ///
    /// Also where it would place the rider: the filter's expectation moved by the share of the
    /// stray along the way it trusts, or the match itself where starting again is cheaper.
    func cost(
        of match: RouteCourse.Match, on way: RideHypothesis.Way, for hypothesis: RideHypothesis, from previous: Double, shortfall: Shortfall,
        logDeterminant: Double, context c: Context
    ) -> (cost: Double, along: Double) {
        let innovation = hypothesis.innovation(match, way: way, noise: c.white, logDeterminant: logDeterminant)
        guard c.seconds != nil else { return (innovation.cost, match.along) }
        let gap = gapCost(to: match.along, from: previous, expected: hypothesis.along, innovation: innovation, seconds: c.seconds)
        // A rider who stopped in the gap is where the fix says, not pulled towards where riding on puts them.
        let filteredAlong = gap.stopped ? max(hypothesis.along + innovation.yt, previous) : hypothesis.along(correctedBy: innovation)
        let filtered = innovation.cost + gap.cost + shortfall.cost(along: filteredAlong, course: course)
        // A restart costs at least its base: no need to work it out where the filter is cheaper.
        guard filtered > c.restartBase else { return (filtered, filteredAlong) }
        let restart = restartCost(match, expected: hypothesis.along, context: c) + shortfall.cost(along: match.along, course: course)
        return restart < filtered ? (restart, match.along) : (filtered, filteredAlong)
    }

    /// Nats for starting a hypothesis again at `match`, knowing nothing of the drift: `resetCost`,
    /// the fix's likelihood with drift of the ride's σ, and a nat for each `restartReach` metres the
    /// match is from where the hypothesis expected the rider (nearer places are likelier).
    func restartCost(_ match: RouteCourse.Match, expected: Double, context c: Context) -> Double {
        c.restartBase + abs(match.along - expected) / Self.restartReach + 0.5 * match.offset * match.offset / (c.drift + c.white)
    }

    /// A hypothesis matched to `match`, its cost counted and its filter corrected; or, where the
    /// filter's expectation is far off (it may have lost the rider), started again at the match for
    /// `resetCost` nats, whichever is cheaper.
    ///
    /// Worked in place, on a copy of the hypothesis already where it is kept: a hypothesis is a few
    /// hundred bytes, and copying it about was a tenth of a fix's time.
    func branch(
        _ branch: inout RideHypothesis, to match: RouteCourse.Match, from previous: Double, shortfall: Shortfall, context c: Context
    ) {
        let way = c.frame.way(of: course.pieces[match.piece])
        let innovation = branch.innovation(match, way: way, noise: c.white)
        let expected = branch.along
        let furthest = branch.furthest
        branch.spikes = 0
        let gap = gapCost(to: match.along, from: previous, expected: expected, innovation: innovation, seconds: c.seconds)
        let filtered = innovation.cost + gap.cost
        let restart = restartCost(match, expected: expected, context: c)
        branch.match = match
        branch.stray = innovation.yn
        branch.strayVariance = innovation.snn
        if restart < filtered && c.seconds != nil {
            // Started again: the distance along is the match's and the drift unknown; only the speed carries over.
            branch.cost += restart
            branch.along = match.along
            branch.east = 0
            branch.north = 0
            let velocity = max(branch.p.vv, c.fix.speed == nil ? 4 : 1)
            branch.p = .diagonal(along: c.sigma * c.sigma, velocity: velocity, drift: c.drift)
            let restarted = branch.innovation(match, way: way, noise: c.white)
            branch.correct(restarted)
            branch.stray = restarted.yn
            branch.strayVariance = restarted.snn
            if let speed = c.fix.speed { branch.correct(speed: speed, variance: 0.25) }
        } else if gap.stopped {
            // Stopped somewhere in the gap: where the fix says, the drift kept, the speed since unknown.
            branch.cost += filtered
            branch.along = max(branch.along + innovation.yt, previous)
            branch.p.ss = c.white
            (branch.p.sv, branch.p.se, branch.p.sn) = (0, 0, 0)
            branch.p.vv = max(branch.p.vv, c.fix.speed == nil ? 4 : 1)
            let stopped = branch.innovation(match, way: way, noise: c.white)
            branch.correct(stopped)
            branch.stray = stopped.yn
            branch.strayVariance = stopped.snn
            if let speed = c.fix.speed { branch.correct(speed: speed, variance: 0.25) }
        } else {
            branch.cost += filtered
            branch.correct(innovation)
            if c.seconds == nil {
                // Without times there is no speed to filter with: the rider is where the fix meets the
                // course, never behind where they were.
                branch.along = max(match.along, previous)
            } else if let speed = c.fix.speed {
                branch.correct(speed: speed, variance: 0.25)
            }
        }
        // Riders follow the course forwards, and the drift stays within 3σ.
        branch.velocity = max(branch.velocity, 0)
        branch.along = min(max(branch.along, furthest - c.retreat), course.length)
        // The furthest the rider surely got: a guess that has just jumped ahead is not sure of it.
        branch.furthest = max(furthest, branch.along - 1.5 * branch.p.ss.squareRoot())
        branch.limitDrift(to: 3 * c.sigma)
        branch.cost += shortfall.cost(along: branch.along, course: course)
        if branch.reference.map({ c.clock - $0.clock >= Self.referenceAge }) ?? true {
            if branch.oldestReference.map({ c.clock - $0.clock >= 5 * Self.referenceAge }) ?? true {
                branch.oldestReference = branch.olderReference
            }
            branch.olderReference = branch.reference
            branch.reference = .init(clock: c.clock, along: branch.along, point: c.point)
        }
    }

    /// Nats for a guess that has the rider ride less far along the course than the fixes moved
    /// since its references, beyond what the drift's change over that time explains (two standard
    /// deviations of it): a guess stuck at a kink of the course while the rider rides on, or at the
    /// end of the course while they start out, pays fix after fix.
    struct Shortfall {
        typealias Reference = (chord: Double, along: Double, spread: Double, age: Double)
        /// Each reference's distance from the fix, distance along, and the spread of the drift's change since.
        var oldest: Reference?
        var older: Reference?
        var newer: Reference?

        init(_ hypothesis: RideHypothesis, context c: Context) {
            func spread(_ reference: RideHypothesis.Reference?) -> Reference? {
                guard let reference, c.clock - reference.clock >= 2 else { return nil }
                return (
                    c.point.distance(to: reference.point), reference.along, c.changeSpread(fading: reference.fading),
                    c.clock - reference.clock
                )
            }
            oldest = spread(hypothesis.oldestReference)
            older = spread(hypothesis.olderReference)
            newer = spread(hypothesis.reference)
        }

        /// Metres the way along the course from `reference` to `along` falls short of the fixes'
        /// chord beyond what drift explains; nil where it does not.
        private static func shortfall(from reference: Reference, to along: Double, course: RouteCourse) -> Double? {
            // Gaps only add to the way ridden: most fixes are settled before they are counted.
            guard reference.chord - (along - reference.along) - 2 * reference.spread > 0 else { return nil }
            let ridden = along - reference.along + course.gaps(from: reference.along, to: along)
            let shortfall = reference.chord - ridden - 2 * reference.spread
            return shortfall > 0 ? shortfall : nil
        }

        func cost(along: Double, course: RouteCourse) -> Double {
            func cost(_ reference: Reference?) -> Double {
                guard let reference, let shortfall = Self.shortfall(from: reference, to: along, course: course) else { return 0 }
                return 0.5 * (shortfall / reference.spread) * (shortfall / reference.spread)
            }
            return max(cost(oldest), cost(older), cost(newer))
        }

        /// How far along the rider may be by the references that find a guess at `along` short:
        /// as far as the fastest rider gets since, and no more than a way four times as winding as
        /// the fixes' chord. A guess stuck behind a turn the fixes blurred (a hairpin, a small loop)
        /// can then meet the fixes where they are instead of only within one fix's reach.
        func reach(along: Double, course: RouteCourse, maximumSpeed: Double) -> Double? {
            func reach(_ reference: Reference?) -> Double? {
                guard let reference, Self.shortfall(from: reference, to: along, course: course) != nil else { return nil }
                return reference.along + min(maximumSpeed * reference.age, 4 * reference.chord)
            }
            switch (reach(oldest), reach(older), reach(newer)) {
            case (nil, nil, nil): return nil
            case let (a, b, c): return max(a ?? -.infinity, b ?? -.infinity, c ?? -.infinity)
            }
        }
    }

    /// After a long gap, a rider may have stopped or been carried rather than ridden on: the cost
    /// of the fix is then the cheaper of riding on as the filter expects and a stop anywhere between
    /// (a change to the filter's cost, in nats), and whether the stop is the cheaper.
    func gapCost(
        to along: Double, from previous: Double, expected: Double, innovation: RideHypothesis.Innovation, seconds: Double?
    ) -> (cost: Double, stopped: Bool) {
        guard let seconds, seconds > Self.longGap else { return (0, false) }
        // The filter's cost of the distance along alone, which a stop replaces.
        let alongCost = 0.5 * innovation.yt * innovation.yt / innovation.stt + 0.5 * log(2 * .pi * innovation.stt)
        let share = Self.rodeOn
        // A stop anywhere from where the rider was to as far as riding on reaches, none likelier; a
        // fix behind where they were is only noise about it.
        let reach = max(expected - previous + 2 * innovation.stt.squareRoot(), 20)
        let behind = max(previous - along, 0)
        let stopped = along <= previous + reach ? -log((1 - share) / reach) + 0.5 * behind * behind / innovation.snn : .infinity
        let riding = -log(share) + alongCost
        return (min(riding, stopped) - alongCost, stopped < riding)
    }

    /// Moves a hypothesis on to the time of the fix (by how far the fixes moved, without times).
    func predict(_ hypothesis: inout RideHypothesis, context c: Context, fading: Double, fresh: Double, speedChangeFloor: Double = 0.5) {
        guard let step = c.seconds else {
            // Without times: a little ahead, by how far the fix moved.
            hypothesis.along += min(c.moved, 100) / 2
            hypothesis.velocity = 0
            hypothesis.predict(seconds: 0, speedChange: 0, fading: fading, fresh: fresh)
            hypothesis.p.ss += (c.moved / 2 + 5) * (c.moved / 2 + 5)
            return
        }
        // Speed changes at most so much however long the gap: a drop-out widens the search by
        // hundreds of metres, not by kilometres of constant acceleration.
        let changeLimit = max(options.speedChangeShare * hypothesis.velocity, speedChangeFloor)
        let change = min(options.acceleration * options.acceleration * step * step, changeLimit * changeLimit)
        hypothesis.predict(seconds: step, speedChange: change, fading: fading, fresh: fresh)
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

    /// One way a hypothesis may meet a fix, scored before it is worked out.
    struct Candidate {
        var hypothesis: Int
        /// Where the hypothesis had the rider at the last fix.
        var previous: Double
        /// The place matched, nil for a spike.
        var match: RouteCourse.Match?
        var cost: Double
        var along: Double
    }

    /// Keeps the cheapest candidates, one per place (candidates within `apart` metres along are
    /// one), at most `maximumHypotheses`, none `hopeless`ly dearer than the cheapest; cheapest first.
    static func chooseSurvivors(of candidates: inout [Candidate], apart: Double) {
        var kept = 0
        while kept < min(maximumHypotheses, candidates.count) {
            var chosen = -1
            for index in kept..<candidates.count where chosen < 0 || candidates[index].cost < candidates[chosen].cost {
                let along = candidates[index].along
                if !candidates[0..<kept].contains(where: { abs($0.along - along) < apart }) { chosen = index }
            }
            guard chosen >= 0, kept == 0 || candidates[chosen].cost - candidates[0].cost < hopeless else { break }
            candidates.swapAt(kept, chosen)
            kept += 1
        }
        candidates.removeSubrange(kept...)
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
