#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import RouteModel

/// Following a rider who is on the course: every hypothesis moves on and meets the fix.
extension RouteTracker {
    /// Metres a hypothesis's rider may have gone since the last fix: their speed, and six times its
    /// spread but at least 10 m/s more, never beyond the fastest rider's reach. Pieces past it are
    /// not scored: at 5 m/s a fix each second, 17 m instead of 30.
    func ownReach(of hypothesis: RideHypothesis, context c: Context) -> Double {
        guard let seconds = c.seconds else { return c.reach }
        let faster = max(Self.reachSpreads * hypothesis.p.vv.squareRoot(), Self.reachFaster)
        return min(c.reach, (max(hypothesis.velocity, 0) + faster) * seconds)
    }

    /// On the course: every hypothesis moves on and meets the fix.
    mutating func onCourse(_ c: Context, state: inout State) -> RouteProgress {
        let step = c.seconds ?? 1
        let fading = exp(-max(step, 0) / c.correlationTime)
        let fresh = c.drift * (1 - fading * fading)
        predicted.removeAll(keepingCapacity: true)
        shortfalls.removeAll(keepingCapacity: true)
        reaches.removeAll(keepingCapacity: true)
        var low = Double.infinity
        var high = -Double.infinity
        origins.removeAll(keepingCapacity: true)
        // Hypotheses are copied once, into `predicted`, and moved on there.
        for rank in state.hypotheses.indices {
            let before = state.hypotheses[rank].along
            // A rider standing still may set off at any fix: see below.
            let stopped = rank == 0 && c.seconds != nil && c.fix.speed == nil && state.hypotheses[rank].velocity < Self.setOffBelow
            predicted.append(state.hypotheses[rank])
            let last = predicted.count - 1
            predict(&predicted[last], context: c, fading: fading, fresh: fresh)
            low = min(low, predicted[last].furthest - c.retreat)
            let shortfall = Shortfall(predicted[last], context: c)
            // Only the likeliest guess reaches further when outrun: the others, outrun, should die.
            let outrun = rank == 0 ? shortfall.reach(along: before, course: course, maximumSpeed: options.maximumSpeed) : nil
            let reach = max(before + ownReach(of: state.hypotheses[rank], context: c), outrun ?? 0)
            high = max(high, reach + c.back)
            shortfalls.append(shortfall)
            reaches.append(reach)
            origins.append(rank)
            // A rider standing still may set off: beside the guess that they stand on,
            // one whose speed may change as a start changes it, for a price. Without the phone's
            // speed only the fixes tell, and a guess whose speed creeps up from nought lags a rider
            // who rode off (a summit, a turn) by tens of metres for fix after fix.
            if stopped {
                predicted.append(state.hypotheses[rank])
                predict(&predicted[last + 1], context: c, fading: fading, fresh: fresh, speedChangeFloor: Self.setOffChange)
                predicted[last + 1].cost += Self.setOffCost
                shortfalls.append(shortfall)
                reaches.append(reach)
                origins.append(rank)
            }
        }
        course.pieces(near: c.point, within: c.radius, window: low...high, hint: state.piece, into: &nearby)
        course.passes(among: nearby, separation: max(10, c.sigma), into: &passes)
        nearbyWays.removeAll(keepingCapacity: true)
        for match in nearby { nearbyWays.append(c.frame.way(of: course.pieces[match.piece])) }

        // Every hypothesis met with the cheapest place in each stretch of its reach (where the rider
        // rode on, where they stopped, the next leg), with every pass it can reach, and with none. Each
        // is scored first; only the few that survive are worked out.
        candidates.removeAll(keepingCapacity: true)
        let stretch = max(2 * c.sigma, 20)
        for (index, hypothesis) in predicted.enumerated() {
            let previous = state.hypotheses[origins[index]].along
            let shortfall = shortfalls[index]
            let within = (hypothesis.furthest - c.retreat)...(reaches[index] + c.back)
            // Spikes come alone: each further one in a row is dearer, so a guess left behind by a
            // rider who set off cannot take fix after fix for spikes.
            let spikeCost = Self.spikeCost * Double(1 + min(hypothesis.spikes, 3)) + log(2 * .pi) + 0.5 * log((hypothesis.p.ss + hypothesis.p.ee + c.white) * (hypothesis.p.nn + c.white))
            candidates.append(Candidate(hypothesis: index, previous: previous, match: nil, cost: hypothesis.cost + spikeCost, along: hypothesis.along))

            let logDeterminant = hypothesis.typicalLogDeterminant(noise: c.white)
            for bin in stretches.indices { stretches[bin] = (-1, .infinity, 0) }
            var metNearExpected = false
            for (index, match) in nearby.enumerated() where within.contains(match.along) {
                let bin = min(Int((match.along - within.lowerBound) / stretch), Self.maximumStretches - 1)
                let (cost, along) = cost(of: match, on: nearbyWays[index], for: hypothesis, from: previous, shortfall: shortfall, logDeterminant: logDeterminant, context: c)
                if cost < stretches[bin].cost { stretches[bin] = (index, cost, along) }
                if abs(along - hypothesis.along) < stretch { metNearExpected = true }
            }
            var cheapest = Double.infinity
            for entry in stretches { cheapest = min(cheapest, entry.cost) }
            // Where the likeliest guess expects the rider, though the fix's nearest point lies
            // elsewhere: drift of 3σ about a bend puts a fix nearer another stretch of the same way.
            if origins[index] == 0, !metNearExpected,
                case let expectedPiece = course.pieceIndex(atDistance: min(max(hypothesis.along, 0), course.length), hint: hypothesis.match?.piece ?? state.piece),
                let expected = course.nearestPoint(of: c.point, onPiece: expectedPiece, within: c.radius * c.radius), within.contains(expected.along)
            {
                let (cost, along) = cost(of: expected, on: c.frame.way(of: course.pieces[expected.piece]), for: hypothesis, from: previous, shortfall: shortfall, logDeterminant: logDeterminant, context: c)
                if cost <= cheapest + Self.alternativeCost {
                    candidates.append(Candidate(hypothesis: index, previous: previous, match: expected, cost: hypothesis.cost + cost, along: along))
                    cheapest = min(cheapest, cost)
                }
            }
            guard cheapest.isFinite else { continue }
            for (place, cost, along) in stretches where place >= 0 && cost <= cheapest + Self.alternativeCost {
                candidates.append(Candidate(hypothesis: index, previous: previous, match: nearby[place], cost: hypothesis.cost + cost, along: along))
            }
            for pass in passes where within.contains(pass.along) && !stretches.contains(where: { $0.index >= 0 && nearby[$0.index].piece == pass.piece }) {
                let (cost, along) = cost(of: pass, on: c.frame.way(of: course.pieces[pass.piece]), for: hypothesis, from: previous, shortfall: shortfall, logDeterminant: logDeterminant, context: c)
                if cost <= cheapest + Self.alternativeCost {
                    candidates.append(Candidate(hypothesis: index, previous: previous, match: pass, cost: hypothesis.cost + cost, along: along))
                }
            }
        }
        Self.chooseSurvivors(of: &candidates, apart: max(25, 2 * c.sigma))
        state.hypotheses.removeAll(keepingCapacity: true)
        for candidate in candidates {
            state.hypotheses.append(predicted[candidate.hypothesis])
            let last = state.hypotheses.count - 1
            guard let match = candidate.match else {
                state.hypotheses[last].match = nil
                state.hypotheses[last].spikes += 1
                state.hypotheses[last].cost = candidate.cost
                continue
            }
            branch(&state.hypotheses[last], to: match, from: candidate.previous, shortfall: shortfalls[candidate.hypothesis], context: c)
        }
        // The cheapest first, costs counted from it.
        if let cheapest = state.hypotheses.indices.min(by: { state.hypotheses[$0].cost < state.hypotheses[$1].cost }) {
            state.hypotheses.swapAt(0, cheapest)
            let least = state.hypotheses[0].cost
            for index in state.hypotheses.indices { state.hypotheses[index].cost -= least }
        }
        state.hypothesesClock = c.clock
        let best = state.hypotheses[0]
        if best.match == nil, state.confirmations == 0 {
            // Placed by one fix, which the next takes for a spike, and which lies on the course
            // before it: riders start at the start, and the first fix was likelier the spike (one
            // beside a loop's finish would otherwise keep a rider at the start there for good).
            var again = state
            again.placed = false
            again.onRoute = false
            again.hypotheses.removeAll(keepingCapacity: true)
            let progress = search(c, state: &again)
            if again.onRoute && again.along < best.along - c.back {
                state = again
                return progress
            }
        }

        // The fix against the drift of the last half minute: a rider leaving moves fixes off the way
        // faster than drift can.
        var offset: Double
        var stray: Double
        var threshold = c.floor
        // The left of the way at the nearest pass: the best match's own, when it has one.
        var normal = (east: 0.0, north: 0.0)
        let nearest = best.match ?? nearestPass(from: best.along, within: c.back + c.reach)
        if let nearest {
            offset = nearest.offset
            normal = c.frame.leftNormal(of: course.pieces[nearest.piece])
            let carried = best.match != nil ? (best.stray, best.strayVariance.squareRoot()) : (nearest.side, (best.p.ee + c.white).squareRoot())
            stray = carried.0
            threshold = limit(floor: c.floor, spread: carried.1)
            if let (largest, spread) = state.history.largestStray(
                side: nearest.side, normal: normal, time: c.clock, correlationTime: c.correlationTime, drift: c.drift, white: c.white),
                abs(largest) - limit(floor: c.floor, spread: spread) > abs(stray) - threshold
            {
                (stray, threshold) = (largest, limit(floor: c.floor, spread: spread))
            }
        } else {
            offset = c.point.distance(to: course.point(atDistance: best.along))
            stray = offset
        }
        var movedOver = false
        if let seconds = c.seconds, let nearest {
            if seconds > Self.longGap { state.moved.removeAll() }
            // Only a fix over the floor from the way can have moved off it.
            if abs(nearest.side) > c.floor, let (moved, limit) = movedAcross(c, nearest: nearest, moved: state.moved), abs(moved) - limit > abs(stray) - threshold {
                (stray, threshold) = (moved, limit)
                movedOver = true
            }
            // Spikes are not kept: a fix after one would seem to have moved tens of metres.
            if best.match != nil, state.moved.wants(c.clock) {
                state.moved.append(
                    Trail.Fix(clock: c.clock, along: nearest.along, side: nearest.side, offset: nearest.offset, stage: course.pieces[nearest.piece].stage, piece: nearest.piece))
            }
        }
        let over = (abs(stray) > threshold && offset > c.floor * options.rejoinShare) || movedOver
        let sideOfStray = stray >= 0 ? 1.0 : -1.0
        if over {
            // A rider leaving moves the fixes on from the last one over; a spike jumps tens of
            // metres from it: two spikes, or a drifting fix and a spike, are not a departure.
            let together = state.overPoint.map { last in
                let seconds = c.seconds.map { _ in max(c.clock - last.clock, 0) } ?? 1
                return c.point.distance(to: last.point) <= 1.5 * max(best.velocity, 2) * seconds + 3 * (2 * c.white).squareRoot() + 15
            } ?? false
            state.overCount = state.overCount > 0 && state.overSide == sideOfStray && together ? state.overCount + 1 : 1
            state.overSide = sideOfStray
            state.overPoint = (c.point, c.clock)
        } else {
            state.overCount = 0
        }
        // Without times a switch of hypothesis may not take the rider back: there is no clock to say
        // the last placing was wrong rather than the fix.
        state.along = c.seconds == nil && c.fix.time == nil ? max(best.along, state.along) : best.along
        if let match = best.match, !over {
            state.confirmations += 1
            state.sinceRejoin += 1
            if state.sinceRejoin >= Self.firmAfter { state.firmAnchor = nil }
            state.anchor = best.along
            state.anchorTime = c.fix.time
            // Learnt only from a clear winner: a guess that is wrong for a while must not teach the
            // tracker that the receiver strays that far.
            if abs(match.beyond) < 1 && (state.hypotheses.count == 1 || state.hypotheses[1].cost >= 3) {
                state.noise.learn(
                    side: match.side, residual: best.stray, expected: best.strayVariance, normal: normal,
                    clock: c.clock, seconds: step)
            }
            state.history.record(
                .init(time: c.clock, east: best.east, north: best.north, ee: best.p.ee, en: best.p.en, nn: best.p.nn))
        }
        // Off: two fixes in a row over the threshold on one side. One wild fix never flips the state.
        if state.overCount >= 2 {
            // Found again too soon (on the way back, the drift taking the walk for its own), the
            // rider is leaving from where they were, not to the side the drift now puts the fixes.
            if c.clock - state.rejoinClock > Self.resumeWithin || state.leftSide == 0 { state.leftSide = state.overSide }
            state.onRoute = false
            state.leftClock = c.clock
            state.resuming = false
            state.lost = nil
            state.overCount = 0
            state.movedSinceAnchor = c.moved
            // The drift from before the rider left, which the filter may since have followed them with.
            let before = state.history.oldest(before: c.clock, minimumAge: 10)
            state.offDrift = before.map { ($0.east, $0.north, max($0.ee, $0.nn), $0.time) } ?? (best.east, best.north, max(best.p.ee, best.p.nn), c.fix.time)
            state.history.removeAll()
            if state.confirmations < 3 {
                // Placed on too little: look again over the whole course.
                state.placed = false
            }
        }
        return report(&state, at: c.point, threshold: threshold, zone: c.zone)
    }
}
