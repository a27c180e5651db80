#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import RouteModel

/// Finding a rider who is off the course, or not yet on it.
extension RouteTracker {
    /// Off the course (or not yet on it): the earliest pass within reach of where the rider left it
    /// (the whole course before the first placing), taken once a fix comes within two thirds of the
    /// threshold.
    mutating func search(_ c: Context, state: inout State) -> RouteProgress {
        let window: ClosedRange<Double>
        if state.placed {
            let elapsed = (c.fix.time ?? 0) - (state.anchorTime ?? c.fix.time ?? 0)
            let reach = c.fix.time != nil && state.anchorTime != nil ? options.maximumSpeed * elapsed : 2 * state.movedSinceAnchor
            window = (min(state.anchor, state.firmAnchor ?? state.anchor) - c.back)...(state.anchor + reach + c.back)
        } else {
            window = 0...course.length
        }
        // The drift from before the rider left, faded since.
        let age = max(c.clock - (state.offDrift.time ?? c.clock), 0)
        let fading = exp(-age / c.correlationTime)
        let drift = (east: fading * state.offDrift.east, north: fading * state.offDrift.north)
        let variance = fading * fading * state.offDrift.variance + c.drift * (1 - fading * fading) + c.white
        let threshold = limit(floor: c.floor, spread: variance.squareRoot())

        course.pieces(near: c.point, within: threshold + 3 * c.sigma + 30, window: window, into: &nearby)
        course.passes(among: nearby, separation: max(10, c.sigma), into: &passes)
        // Each pass's stray from where the drift puts the fix; back on the course where the least
        // is within the threshold, on the earliest pass about as near (at a crossing, a lap line or
        // a loop's start and finish, the first time the course comes by).
        func stray(_ pass: RouteCourse.Match) -> Double {
            let normal = c.frame.leftNormal(of: course.pieces[pass.piece])
            let across = pass.side - (normal.east * drift.east + normal.north * drift.north)
            // A fix right on the way is back whatever the drift said.
            guard pass.offset > c.floor * options.rejoinShare * options.rejoinShare else { return pass.offset }
            return (across * across + pass.beyond * pass.beyond).squareRoot()
        }
        let strays = passes.map(stray)
        let least = strays.min() ?? .infinity
        let besideIt = passRiddenBeside(c, threshold: threshold, state: &state)
        var found: (match: RouteCourse.Match, stray: Double)? = nil
        if least <= threshold, state.resuming, let lost = state.lost, !course.isNearStageEnd(lost.along, within: c.zone) {
            // Found again after a gap: where the time since says, not the earliest pass. The rider
            // rode on at about their speed, or stopped somewhere on the way (a U-turn's way back
            // after a summit's gap is where the minutes put them, not the way out it lies beside).
            // At a stage's end the rider goes on at the next stage's start however long the gap.
            let prior = GapPrior(lost, clock: c.clock, sigma: c.sigma)
            var cheapest = Double.infinity
            for index in passes.indices where strays[index] <= threshold {
                let cost = 0.5 * strays[index] * strays[index] / variance + prior.cost(along: passes[index].along, back: c.back)
                if cost < cheapest { (cheapest, found) = (cost, (passes[index], strays[index])) }
            }
        } else if least <= threshold {
            // Before the first placing, any pass within the threshold: riders start at the start.
            let tolerance = state.placed ? least + 2 * c.sigma + 10 : threshold
            // The earliest such pass, or a nearer one just after it (the two legs of a corner).
            if let earliest = strays.firstIndex(where: { $0 <= tolerance }) {
                let (along, stage) = (passes[earliest].along, course.pieces[passes[earliest].piece].stage)
                for index in passes.indices[earliest...] where strays[index] <= tolerance && (found.map { strays[index] < $0.stray } ?? true) {
                    let pass = passes[index]
                    guard pass.along - along <= max(20, c.sigma), course.pieces[pass.piece].stage == stage else { continue }
                    found = (pass, strays[index])
                }
            }
        }
        var rejoinDrift = drift
        if let beside = besideIt, found.map({ $0.stray > threshold * options.rejoinShare }) ?? true {
            // Back on the course beside it: the drift is what now puts the fixes there.
            let normal = c.frame.leftNormal(of: course.pieces[beside.piece])
            rejoinDrift = (beside.side * normal.east, beside.side * normal.north)
            found = (beside, 0)
        }
        guard let (pass, passStray) = found else {
            // Off the course the rider is nearest the earliest pass about as near as any (where a
            // drift took the fixes off, they ride on; where they left, it is where they left).
            if let nearest = passes.map(\.offset).min() {
                if state.placed, let place = passes.first(where: { $0.offset <= nearest + 2 * c.sigma + 10 }) {
                    state.along = max(place.along, state.anchor - c.back)
                }
                return report(&state, at: c.point, threshold: threshold, zone: c.zone)
            }
            return report(&state, at: c.point, threshold: threshold, zone: c.zone)
        }
        // Back on: a fix well within the threshold (within it after a gap). A rider 60 m off whose
        // fixes drift 20 m towards the way, or riding out to their detour, is not back.
        guard passStray <= threshold * options.rejoinShare || state.resuming else {
            return report(&state, at: c.point, threshold: threshold, zone: c.zone)
        }
        state.overCount = 0
        if state.placed && !state.resuming && !state.hypotheses.isEmpty, let left = state.leftClock, c.clock - left <= Self.resumeWithin {
            state.leftClock = nil
            let before = state
            state.onRoute = true
            var resumed = c
            if c.seconds != nil {
                resumed.seconds = c.clock - state.hypothesesClock
                resumed.reach = options.maximumSpeed * (c.clock - state.hypothesesClock)
            }
            let progress = onCourse(resumed, state: &state)
            // A guess that takes the fix that brought the rider back for a spike has lost them: start afresh.
            guard state.hypotheses.first?.match == nil else {
                // As after any return, the place is not sure until `firmAfter` fixes have met it.
                state.firmAnchor = min(before.firmAnchor ?? before.anchor, before.anchor)
                state.sinceRejoin = 0
                state.rejoinClock = c.clock
                return progress
            }
            state = before
        }
        let speedVariance = c.fix.speed == nil ? 4.0 : 1.0
        state.trail.removeAll()
        var hypothesis = RideHypothesis(
            along: pass.along, velocity: c.fix.speed ?? 0, east: rejoinDrift.east, north: rejoinDrift.north,
            p: .diagonal(along: c.sigma * c.sigma, velocity: speedVariance, drift: variance - c.white), cost: 0, furthest: pass.along - 1.5 * c.sigma,
            reference: .init(clock: c.clock, along: pass.along, point: c.point), match: pass)
        let way = c.frame.way(of: course.pieces[pass.piece])
        let innovation = hypothesis.innovation(pass, way: way, noise: c.white)
        hypothesis.correct(innovation)
        hypothesis.along = pass.along
        hypothesis.stray = innovation.yn
        hypothesis.strayVariance = innovation.snn
        state.hypotheses = [hypothesis]
        state.hypothesesClock = c.clock
        state.history.removeAll()
        if !state.placed { state.confirmations = 0 }
        state.firmAnchor = state.placed ? min(state.firmAnchor ?? state.anchor, state.anchor) : nil
        state.sinceRejoin = 0
        state.rejoinClock = c.clock
        state.placed = true
        state.onRoute = true
        state.resuming = false
        state.lost = nil
        state.anchor = pass.along
        state.anchorTime = c.fix.time
        state.along = pass.along
        return report(&state, at: c.point, threshold: threshold, zone: c.zone)
    }
}

/// Where a rider found again after a gap in the fixes is likely to be along the course: most rode
/// on at about the speed they had, the rest stopped somewhere on the way; none went back further
/// than noise reaches.
struct GapPrior {
    /// Where the rider was when the fixes stopped, their speed and its variance, and when.
    struct Lost: Sendable {
        var along: Double
        var speed: Double
        var speedVariance: Double
        var clock: Double
    }

    let from: Double
    let expected: Double
    let spread: Double

    init(_ lost: Lost, clock: Double, sigma: Double) {
        let elapsed = max(clock - lost.clock, 0)
        from = lost.along
        expected = lost.along + lost.speed * elapsed
        // The speed changes over a gap by about a third (a standing rider mostly stands on); the place by the time it held.
        let change = 0.3 * lost.speed + 0.1
        spread = (lost.speedVariance * elapsed * elapsed + change * change * elapsed * elapsed / 4 + sigma * sigma).squareRoot()
    }

    /// Nats against a rider `along` the course: 80% rode on, 20% stopped anywhere up to where riding on puts them.
    func cost(along: Double, back: Double) -> Double {
        guard along >= from - back else { return .infinity }
        let z = (along - expected) / spread
        let rode = 0.8 * exp(-0.5 * z * z) / (spread * (2 * Double.pi).squareRoot())
        let reach = max(expected + 2 * spread - from, 1)
        let stopped = along <= from + reach ? 0.2 / reach : 0
        return -log(max(rode + stopped, 1e-300))
    }
}
