#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import RouteModel

/// How one hypothesis meets a fix: moved on to its time, what each way of matching it costs, the
/// match worked out (or a fresh start), and which candidates live on.
extension RouteTracker {
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
}
