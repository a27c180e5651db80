import Foundation
import RouteModel
import RoutePlacement
import TestSupport

/// How a phone's GPS errs, as the tracker must bear it.
///
/// Each axis (east, north) drifts as a first-order Gauss-Markov process: σ metres at any moment,
/// correlated over `correlationTime` seconds, so fixes lie to one side together for tens of seconds.
/// A share of fixes are multipath spikes, 80-200 m off in any direction, reporting the usual accuracy.
struct GPSErrors: Sendable, CustomStringConvertible {
    /// What the receiver reports besides position and time.
    enum Receiver: String, CaseIterable, Sendable, CustomStringConvertible {
        /// Time only, as a recorded GPX track.
        case bare
        /// Accuracy and Doppler speed as well, as a phone's location API.
        case phone
        var description: String { rawValue }
    }

    /// Metres, 1σ, east and north each.
    var sigma: Double
    /// Seconds over which the drift decorrelates by 1/e.
    var correlationTime: Double
    /// Seconds between fixes.
    var interval: Double
    var receiver: Receiver
    /// The share of fixes that are spikes.
    var spikeShare = 0.01
    var spikeReach: ClosedRange<Double> = 80...200
    /// The accuracy a phone reports whatever its error: its usual 68% radius.
    var reportedAccuracy = 12.0

    /// Plain white noise: σ metres each axis, every fix on its own, no spikes.
    static func white(sigma: Double, interval: Double, receiver: Receiver) -> GPSErrors {
        GPSErrors(sigma: sigma, correlationTime: 0, interval: interval, receiver: receiver, spikeShare: 0)
    }

    var description: String {
        correlationTime == 0
            ? "white noise σ \(Int(sigma)) m, a fix each \(Int(interval)) s, \(receiver)"
            : "σ \(Int(sigma)) m over \(Int(correlationTime)) s, a fix each \(Int(interval)) s, \(receiver)"
    }
}

/// What a rider does at a course's turn: the fixes stop a while about it (a phone in a pocket at
/// the summit), and the rider may stand there before riding back.
struct TurnPlan: Sendable, CustomStringConvertible {
    /// Seconds without fixes about the turn, 0 for none: they stop when the rider, at their pace,
    /// is 45% of it short of the turn.
    var gap: Double
    /// Seconds the rider stands at the turn.
    var wait: Double

    var description: String {
        [gap > 0 ? "no fixes for \(Int(gap)) s" : "no gap", wait > 0 ? "a stop of \(Int(wait)) s" : nil].compactMap { $0 }.joined(separator: ", ")
    }
}

/// A course as a ride sees it: its stages end to end, the place at each distance along it.
struct RideCourse: Sendable {
    let name: String
    let route: Route
    let stages: [MeasuredStage]
    /// Metres along the course where each stage starts.
    let stageStarts: [Double]
    let length: Double
    /// Every point of the route, to tell how far a place is from any of it.
    let points: [Coordinate]
    /// Metres along the course where it turns back along itself, if it does.
    let turn: Double?

    init(name: String, route: Route, turnIndex: Int? = nil) {
        self.name = name
        self.route = route
        stages = route.stages.map(MeasuredStage.init)
        var starts: [Double] = []
        var before = 0.0
        for stage in stages {
            starts.append(before)
            before += stage.length
        }
        stageStarts = starts
        length = before
        points = route.stages.flatMap(\.coordinates)
        let first = stages.first
        turn = turnIndex.flatMap { index in first.map { $0.cumulativeDistances[index] } }
    }

    init(_ course: MadeCourse) {
        self.init(name: course.rawValue, route: course.route, turnIndex: course.turnIndex)
    }

    /// The place `along` metres into stage `stage` (0-based), measured from the course's start.
    func coordinate(stage: Int, along: Double) -> Coordinate {
        stages[stage].coordinate(atDistance: along - stageStarts[stage])
    }

    /// The direction of travel at `along` in `stage`, in degrees from north.
    func azimuth(stage: Int, along: Double) -> Double {
        let end = stageStarts[stage] + stages[stage].length
        let (from, to) = along + 5 <= end ? (along, along + 5) : (along - 5, along)
        return Geodesic.inverse(from: coordinate(stage: stage, along: from), to: coordinate(stage: stage, along: to)).initialAzimuth
    }

    /// The nearest point of the route to `place`, each segment taken as straight on a flat map about
    /// `place` (good to centimetres for segments of tens of metres within a few hundred metres).
    func nearestPoint(to place: Coordinate) -> Coordinate {
        let metresPerDegree = 111_194.9
        let across = cos(place.latitude * .pi / 180)
        func flat(_ point: Coordinate) -> (x: Double, y: Double) {
            ((point.longitude - place.longitude) * across * metresPerDegree, (point.latitude - place.latitude) * metresPerDegree)
        }
        var best = (squared: Double.infinity, point: place)
        var previous = flat(points[0])
        for index in points.indices {
            let here = flat(points[index])
            defer { previous = here }
            let (dx, dy) = (here.x - previous.x, here.y - previous.y)
            let length = dx * dx + dy * dy
            let t = length > 0 ? min(max(-(previous.x * dx + previous.y * dy) / length, 0), 1) : 0
            let (x, y) = (previous.x + t * dx, previous.y + t * dy)
            guard x * x + y * y < best.squared else { continue }
            let from = points[max(index - 1, 0)]
            let to = points[index]
            best = (x * x + y * y, Coordinate(latitude: from.latitude + t * (to.latitude - from.latitude), longitude: from.longitude + t * (to.longitude - from.longitude)))
        }
        return best.point
    }

    /// Metres from `place` to the nearest point of the route, its segments looked at every 5 m.
    func clearance(of place: Coordinate) -> Double {
        var nearest = Double.infinity
        for (a, b) in zip(points, points.dropFirst()) {
            let segment = Geodesic.inverse(from: a, to: b)
            let pieces = max(Int(segment.distance / 5), 1)
            for index in 0...pieces {
                let point = Geodesic.direct(from: a, azimuth: segment.initialAzimuth, distance: segment.distance * Double(index) / Double(pieces))
                nearest = min(nearest, Geodesic.inverse(from: point, to: place).distance)
            }
        }
        return nearest
    }
}

/// A ride along a course with GPS errors, and its truth at every fix.
///
/// The rider stands at the start for a minute, sets off, rides each stage at a wandering pace with
/// a stop of 45 s on the way, stands a minute at each stage's end and at the finish, and (on request)
/// makes a detour 60 m off the course for 30 s. Between stages the phone is off while the rider
/// moves to the next stage's start.
struct GPSRide {
    struct Sample {
        var fix: Fix
        /// Metres along the course where the rider truly is, or was last on it.
        var along: Double
        /// Metres the rider truly is from the course.
        var offset: Double
        /// Whether the fix is a multipath spike.
        var spike: Bool
        /// Metres the drift moved the fix from the truth.
        var drift: Double
        /// Whether the rider has not yet left the start.
        var beforeSetOff: Bool
    }

    /// Where the detour's fixes are: from leaving the course, through the 30 s at 60 m, to the first fix back on it.
    struct Detour {
        /// The first fix at the full 60 m.
        var away: Int
        /// The first fix of the way back.
        var returning: Int
        /// The first fix back on the course.
        var back: Int
        /// Every fix off the course.
        var off: Range<Int>
    }

    let course: RideCourse
    let errors: GPSErrors
    let samples: [Sample]
    let detour: Detour?
    /// With a turn plan: from when the rider reached the turn until they left it, and when the
    /// fixes came back after the gap (or the turn was reached, without one).
    let turnTimes: (reached: Double, left: Double, resumed: Double)?

    /// - Parameters:
    ///   - pace: the rider's usual speed in metres per second.
    ///   - detour: whether to leave the course once, 60 m to a side where no other leg is within 55 m.
    ///   - turn: what the rider does at the course's turn, for a course that has one.
    init(course: RideCourse, errors: GPSErrors, pace: Double, detour wantsDetour: Bool = false, turn plan: TurnPlan? = nil, seed: UInt64) {
        self.course = course
        self.errors = errors
        var random = SeededGenerator(seed: seed)
        func gaussian() -> Double {
            let u = Double.random(in: Double.ulpOfOne..<1, using: &random)
            let v = Double.random(in: 0..<1, using: &random)
            return (-2 * log(u)).squareRoot() * cos(2 * .pi * v)
        }
        var samples: [Sample] = []
        var time = 1_700_000_000.0
        var clock = 0.0  // seconds since the last fix
        // The drift, east and north, and when it was last advanced.
        var drift = (east: gaussian() * errors.sigma, north: gaussian() * errors.sigma)
        var driftTime = time
        // The pace wanders ±15% over about a minute.
        var paceFactor = 0.0
        var stage = 0
        var along = 0.0
        var speed = 0.0
        var setOff = false
        // The gap about the turn: where it starts, and until when no fix comes.
        let turn = plan.flatMap { plan in course.turn.map { (along: $0, plan: plan) } }
        var gapStart = turn.map { $0.plan.gap > 0 ? $0.along - 0.45 * pace * $0.plan.gap : .infinity }
        var silentUntil = -Double.infinity
        var turnTimes: (reached: Double, left: Double, resumed: Double)? = nil

        func advanceDrift(to now: Double) {
            let rho = exp(-(now - driftTime) / errors.correlationTime)
            let spread = errors.sigma * (1 - rho * rho).squareRoot()
            drift = (rho * drift.east + spread * gaussian(), rho * drift.north + spread * gaussian())
            driftTime = now
        }
        func emit(_ truth: Coordinate, offset: Double) {
            advanceDrift(to: time)
            var east = drift.east
            var north = drift.north
            let spike = Double.random(in: 0..<1, using: &random) < errors.spikeShare
            if spike {
                let reach = Double.random(in: errors.spikeReach, using: &random)
                let angle = Double.random(in: 0..<(2 * .pi), using: &random)
                east += reach * sin(angle)
                north += reach * cos(angle)
            }
            let shifted = Geodesic.direct(from: Geodesic.direct(from: truth, azimuth: 90, distance: east), azimuth: 0, distance: north)
            var fix = Fix(coordinate: shifted, time: time)
            if errors.receiver == .phone {
                fix.accuracy = errors.reportedAccuracy
                fix.speed = max(0, speed + gaussian() * 0.3)
            }
            samples.append(
                Sample(fix: fix, along: along, offset: offset, spike: spike, drift: (drift.east * drift.east + drift.north * drift.north).squareRoot(), beforeSetOff: !setOff))
        }
        /// Moves the clock on by a second, emitting a fix whenever an interval has passed.
        func tick(_ truth: () -> Coordinate, offset: Double = 0) {
            time += 1
            clock += 1
            if let start = gapStart, along >= start, let gap = turn?.plan.gap {
                silentUntil = time + gap
                gapStart = nil
            }
            if clock >= errors.interval && time < silentUntil {
                clock = 0
            } else if clock >= errors.interval {
                clock = 0
                emit(truth(), offset: offset)
            }
        }
        func here() -> Coordinate { course.coordinate(stage: stage, along: along) }
        func stand(_ seconds: Int) {
            speed = 0
            for _ in 0..<seconds { tick(here) }
        }
        /// Rides to `target` along the current stage, accelerating at 1 m/s² and braking at 1.5 m/s² to stop there.
        func ride(to target: Double) {
            while along < target - 0.01 {
                paceFactor = paceFactor * exp(-1.0 / 60) + 0.15 * (1 - exp(-2.0 / 60)).squareRoot() * gaussian()
                let cruise = pace * (1 + max(min(paceFactor, 0.3), -0.3))
                let braking = (2 * 1.5 * (target - along)).squareRoot()
                let next = min(speed + 1, cruise, braking)
                along = min(along + (speed + next) / 2, target)
                speed = next
                if speed < 0.05 && along < target { speed = 0.5 }
                tick(here)
            }
            speed = 0
        }

        // Where the stop and the detour are, as shares of the course.
        let stopAt = course.length * 0.4
        let detourPlace = wantsDetour ? Self.detourPlace(on: course) : nil
        var detour: Detour? = nil
        stand(60)
        for index in course.stages.indices {
            stage = index
            let start = course.stageStarts[index]
            let end = start + course.stages[index].length
            if index > 0 {
                // The phone is off while the rider goes to the next stage's start.
                let gap = Geodesic.inverse(from: course.coordinate(stage: index - 1, along: start), to: course.coordinate(stage: index, along: start)).distance
                time += max((gap / 8).rounded(), 20)
                along = start
                stand(20)
            }
            setOff = true
            var stops: [Double] = []
            if (start..<end).contains(stopAt) { stops.append(stopAt) }
            if let place = detourPlace, place.stage == index { stops.append(place.along) }
            if let turn, (start..<end).contains(turn.along) { stops.append(turn.along) }
            for stop in stops.sorted() {
                ride(to: stop)
                if let place = detourPlace, place.stage == index, stop == place.along {
                    // Off to the side at 4 m/s, 30 s there, and back.
                    let first = samples.count
                    let base = here()
                    func aside(_ metres: Double) { tick({ Geodesic.direct(from: base, azimuth: place.azimuth, distance: metres) }, offset: metres) }
                    for step in 1...15 { aside(4 * Double(step)) }
                    for _ in 0..<30 { aside(60) }
                    for step in (0..<15).reversed() { aside(4 * Double(step)) }
                    while samples.count == first || samples[samples.count - 1].offset > 0 { tick(here) }
                    let indices = first..<samples.count
                    let away = indices.first { samples[$0].offset >= 60 } ?? first
                    let returning = (away..<samples.count).first { samples[$0].offset < 60 } ?? away
                    let leftAt = indices.first { samples[$0].offset > 0 } ?? first
                    detour = Detour(away: away, returning: returning, back: samples.count - 1, off: leftAt..<(samples.count - 1))
                } else if let turn, stop == turn.along {
                    let reached = time
                    stand(Int(turn.plan.wait))
                    turnTimes = (reached, time, max(silentUntil, reached))
                } else {
                    stand(45)
                }
            }
            ride(to: end)
            stand(index == course.stages.count - 1 ? 60 : 20)
        }
        self.samples = samples
        self.detour = detour
        self.turnTimes = turnTimes
    }

    /// A place past the middle (or, failing that, before it) where a rider 60 m to one side is at
    /// least 55 m from any other part of the course.
    static func detourPlace(on course: RideCourse) -> (stage: Int, along: Double, azimuth: Double)? {
        for share in Array(stride(from: 0.55, through: 0.95, by: 0.05)) + Array(stride(from: 0.5, through: 0.05, by: -0.05)) {
            let along = course.length * share
            guard let stage = course.stageStarts.lastIndex(where: { $0 <= along }) else { continue }
            let base = course.coordinate(stage: stage, along: along)
            let heading = course.azimuth(stage: stage, along: along)
            for side in [-90.0, 90] {
                let away = Geodesic.direct(from: base, azimuth: heading + side, distance: 60)
                if course.clearance(of: away) >= 55 {
                    return (stage, along, heading + side)
                }
            }
        }
        return nil
    }
}
