/// Follows one rider along a course, fix after fix: where on the course, how far done and to go,
/// and whether still on it.
///
/// A fix is matched near where the rider was, by a filter of distance along the course and speed
/// (allowing for the time since the last fix, and the reported speed when given), so a leg that
/// passes close by, kilometres ahead or behind, is never taken for the rider's. Off the course, the
/// rider is found again where the way first comes within reach, from the last place on. On/off
/// course has hysteresis, against a threshold adapted to accuracy and speed as the seed app did.
public struct RouteTracker: Sendable {
    /// How a tracker judges fixes.
    public struct Options: Sendable, Equatable {
        /// The threshold for fixes that give neither accuracy nor speed, in metres (the seed app's 30).
        public var threshold = 30.0
        /// The least and most any threshold may be, in metres.
        public var thresholdRange: ClosedRange<Double> = 20...100
        /// Rejoining needs the offset under this share of the threshold.
        public var rejoinShare = 2.0 / 3.0
        /// How far a fix without accuracy may be from where the receiver was, 1σ, in metres.
        public var assumedNoise = 10.0
        /// How quickly a rider's speed changes, 1σ, in metres per second per second.
        public var acceleration = 0.3
        /// The most a rider's speed changes between two fixes, 1σ, in metres per second.
        public var speedChange = 3.0
        /// How many variances from its expected place a matched fix must be for the filter to trust
        /// fixes more than its model for a while.
        public var surprise = 6.0
        /// How far the smoothed innovation may lean to one side before the filter trusts fixes more.
        public var trend = 0.5

        public init() {}
    }

    public let course: RouteCourse
    public let options: Options
    private var state: State?

    /// What the tracker knows between fixes.
    private struct State: Sendable {
        /// Metres along the course and metres per second (or per fix, for fixes without time).
        var along: Double
        var velocity: Double
        /// The filter's covariance of (along, velocity).
        var p00: Double
        var p01: Double
        var p11: Double
        var time: Double?
        /// Where the last fix was.
        var lastPoint: EarthPoint
        var onRoute: Bool
        /// Consecutive fixes over the threshold on one side.
        var overCount = 0
        /// Consecutive fixes within the threshold while off the course.
        var underCount = 0
        var lastSide = 0.0
        /// The side offset, smoothed: a third each new fix, two thirds what came before.
        var smoothedSide = 0.0
        /// The last innovations in units of their spread, smoothed: how far the filter trails or leads.
        var trend = 0.0
        /// The furthest the estimate has been since the rider was last placed afresh.
        var furthest = 0.0
        var atStart = false
        var started = false
        var stagesFinished = 0
        var finished = false
    }

    /// A tracker for `course`, before its first fix.
    public init(course: RouteCourse, options: Options = Options()) {
        self.course = course
        self.options = options
    }

    /// The threshold a fix's offset is held to: the larger of 1.5 × accuracy and 2 s at its speed,
    /// within `thresholdRange`; `threshold` if it gives neither.
    public func threshold(for fix: Fix) -> Double {
        guard fix.accuracy != nil || fix.speed != nil else { return options.threshold }
        let byAccuracy = (fix.accuracy ?? 0) * 1.5
        let bySpeed = (fix.speed ?? 0) * 2
        return min(max(byAccuracy, bySpeed, options.thresholdRange.lowerBound), options.thresholdRange.upperBound)
    }

    /// Where the rider is at `fix`, which must come no earlier than the last fix.
    /// - Throws: `FixError` for a fix that cannot be followed; the tracker is then as before it.
    public mutating func update(_ fix: Fix) throws(FixError) -> RouteProgress {
        let fix = try fix.checked(after: state?.time)
        let point = EarthPoint(fix.coordinate)
        let threshold = threshold(for: fix)
        let rejoin = threshold * options.rejoinShare
        let noise = fix.accuracy.map { max($0 / 1.5, 2) } ?? options.assumedNoise

        guard var state else {
            return acquire(fix, at: point, threshold: threshold, noise: noise)
        }

        // Predict: the filter moves on by the time since the last fix, or by one fix without times.
        let step: Double
        let perSecond: Bool
        if let time = fix.time, let last = state.time {
            step = time - last
            perSecond = true
        } else {
            step = 1
            perSecond = false
        }
        // Speed changes at most so much however long the gap: a two-minute drop-out widens the
        // search by hundreds of metres, not by kilometres of constant acceleration.
        let speedChange = min(options.acceleration * options.acceleration * step * step, options.speedChange * options.speedChange)
        var p00 = state.p00 + 2 * step * state.p01 + step * step * state.p11 + speedChange * step * step / 4
        var p01 = state.p01 + step * state.p11 + speedChange * step / 2
        var p11 = state.p11 + speedChange
        let expected: Double
        let spread: Double
        let reach: Double
        if perSecond {
            expected = state.along + state.velocity * step
            spread = (p00 + noise * noise).squareRoot()
            reach = 4 * spread + threshold + 20
        } else {
            // Without times, how far the fix moved says roughly how far along the rider went (more where
            // the way winds, nothing across the gap between two stages): a little ahead is likeliest,
            // so a leg doubling back close by loses to the way on.
            let moved = state.lastPoint.distance(to: point)
            expected = state.along + min(moved, 100) / 2
            spread = moved + 2 * noise
            reach = 2 * moved + 3 * noise + threshold + 20
        }
        // Behind, only as far as noise reaches: riders go forwards, and behind is where a leg that
        // doubles back lies (an out-and-back's way out, metres from the way back).
        let slack = 3 * noise + threshold
        let window = (min(state.along, expected) - slack)...(expected + reach)

        var matched = course.bestMatch(
            for: point, expected: expected, alongSpread: spread, offsetSpread: max(noise, 5), window: window)
        var rejoined = false
        state.furthest = max(state.furthest, state.along)
        let retreat = state.furthest - state.along
        if state.onRoute, retreat > 2 * noise + 5,
            let ahead = course.firstMatch(for: point, within: max(threshold, 2 * noise), from: state.furthest),
            ahead.along <= state.furthest + 2 * (retreat + reach)
        {
            // The estimate has gone back further than noise goes: the rider is riding the other way
            // along a leg close to one ahead (an out-and-back's way back, after a drop-out across the
            // turn). Take the leg ahead, the way the rider is going.
            matched = ahead
            rejoined = true
        }
        if !state.onRoute {
            // Off the course the rider may come back anywhere ahead: the first place the way comes
            // within reach, from where the rider left it (or a little before) on.
            let from = min(state.along, expected) - reach
            if let found = course.firstMatch(for: point, within: rejoin, from: from) {
                matched = found
                rejoined = true
            }
        }
        guard let match = matched ?? course.bestMatch(
            for: point, expected: expected, alongSpread: .infinity, offsetSpread: max(noise, 5), window: 0...course.length)
        else {
            return acquire(fix, at: point, threshold: threshold, noise: noise)
        }

        // Back on: one fix within the smaller threshold, or two in a row within the threshold itself.
        state.underCount = !state.onRoute && match.offset <= threshold ? state.underCount + 1 : 0
        if rejoined || (!state.onRoute && (match.offset <= rejoin || state.underCount >= 2)) {
            state.underCount = 0
            state.onRoute = true
            state.overCount = 0
            state.trend = 0
            state.furthest = match.along
            state.smoothedSide = match.side
            state.lastSide = match.side
            // Start again from where the rider came back: what was known before is stale.
            state.along = match.along
            state.velocity = fix.speed ?? (perSecond ? state.velocity : 0)
            (p00, p01, p11) = (noise * noise, 0, fix.speed == nil ? 25 : 1)
        } else if state.onRoute {
            if perSecond {
                // Correct by the matched distance along, and by the speed when the receiver gives one.
                let innovation = match.along - expected
                var s = p00 + noise * noise
                // A change of pace the model did not expect (a stop, setting off): trust the fixes more
                // for now, or the estimate trails the rider by tens of metres.
                // Noise scatters innovations both ways; a rider changing pace leaves a run of them on one side.
                let normalised = innovation / s.squareRoot()
                state.trend = (state.trend + normalised) / 2
                let surprise = max(normalised * normalised / options.surprise, state.trend * state.trend / options.trend)
                if surprise > 1 {
                    (p00, p01, p11) = (p00 * surprise, p01 * surprise, p11 * surprise)
                    s = p00 + noise * noise
                }
                let (k0, k1) = (p00 / s, p01 / s)
                state.along = expected + k0 * innovation
                state.velocity += k1 * innovation
                (p00, p01, p11) = ((1 - k0) * p00, (1 - k0) * p01, p11 - k1 * p01)
                if let speed = fix.speed {
                    let speedNoise = 0.5
                    let innovation = speed - state.velocity
                    let s = p11 + speedNoise * speedNoise
                    let (k0, k1) = (p01 / s, p11 / s)
                    state.along += k0 * innovation
                    state.velocity += k1 * innovation
                    (p00, p01, p11) = (p00 - k0 * p01, (1 - k1) * p01, (1 - k1) * p11)
                }
            } else {
                // Without times there is no speed to filter with: the rider is where the fix meets the course.
                state.along = match.along
                (p00, p01, p11) = (noise * noise, 0, 25)
            }

            // Leaving needs two fixes in a row over the threshold on one side, and the smoothed side
            // offset over it too: one noisy fix never flips the state.
            let over = match.offset > threshold
            if over {
                state.overCount = (state.overCount > 0 && (match.side > 0) == (state.lastSide > 0)) ? state.overCount + 1 : 1
            } else {
                state.overCount = 0
            }
            state.smoothedSide = (match.side + 2 * state.smoothedSide) / 3
            state.lastSide = match.side
            if state.overCount >= 2 && abs(state.smoothedSide) > threshold {
                state.onRoute = false
            }
        } else {
            // Still off: follow the nearest place near where the rider left, without a speed.
            state.along = match.along
            state.furthest = match.along
            state.velocity = 0
            (p00, p01, p11) = (noise * noise, 0, perSecond ? 25 : 400)
            state.smoothedSide = match.side
            state.lastSide = match.side
        }
        // Riders follow the course forwards: backwards is where a leg that doubles back lies.
        state.velocity = max(state.velocity, 0)
        state.along = min(max(state.along, 0), course.length)
        (state.p00, state.p01, state.p11) = (max(p00, 0), p01, max(p11, 0))
        state.time = fix.time ?? state.time
        state.lastPoint = point
        let progress = report(&state, offset: match.offset, threshold: threshold)
        self.state = state
        return progress
    }

    /// The first fix, or one after the course was lost: the first place along the course within the
    /// threshold, else the nearest.
    private mutating func acquire(_ fix: Fix, at point: EarthPoint, threshold: Double, noise: Double) -> RouteProgress {
        let match =
            course.firstMatch(for: point, within: threshold, from: 0)
            ?? course.bestMatch(for: point, expected: 0, alongSpread: .infinity, offsetSpread: 1, window: 0...course.length)
        let along = match?.along ?? 0
        let offset = match?.offset ?? EarthPoint(course.coordinate(atDistance: 0)).distance(to: point)
        var state = State(
            along: along, velocity: fix.speed ?? 0, p00: noise * noise, p01: 0, p11: fix.speed == nil ? 25 : 1, time: fix.time,
            lastPoint: point, onRoute: offset <= threshold)
        state.smoothedSide = match?.side ?? 0
        state.lastSide = state.smoothedSide
        state.furthest = along
        let progress = report(&state, offset: offset, threshold: threshold)
        self.state = state
        return progress
    }

    /// The progress at the state's place, with the events this fix brings.
    private func report(_ state: inout State, offset: Double, threshold: Double) -> RouteProgress {
        let along = state.along
        let stage = course.stage(atDistance: along)
        let stageStart = course.stageStarts[stage - 1]
        let stageLength = course.stageLengths[stage - 1]
        let zone = max(threshold, 30)
        var event: RouteProgress.Event? = nil
        if state.onRoute {
            if along <= zone {
                state.atStart = true
            } else if state.atStart && !state.started {
                state.started = true
                event = .start
            }
            // A stage is finished within the zone of its end; the last stage's end is the finish.
            while state.stagesFinished < course.stageLengths.count,
                along >= course.stageStarts[state.stagesFinished] + course.stageLengths[state.stagesFinished] - zone
            {
                state.stagesFinished += 1
                if state.stagesFinished == course.stageLengths.count {
                    if !state.finished {
                        state.finished = true
                        event = .finish
                    }
                } else if along < course.stageStarts[state.stagesFinished] + course.stageLengths[state.stagesFinished] - zone {
                    event = .stageFinish
                }
            }
        }
        return RouteProgress(
            snapped: course.coordinate(atDistance: along), distance: along, remaining: max(course.length - along, 0), stage: stage,
            stageDistance: min(max(along - stageStart, 0), stageLength), stageRemaining: max(stageStart + stageLength - along, 0),
            offset: offset, onRoute: state.onRoute, threshold: threshold, event: event)
    }
}
