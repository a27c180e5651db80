import Foundation
import MarkerRoute
import TestSupport

/// Courses with legs that meet, and noisy rides along them whose truth is known.
enum MadeCourse: String, CaseIterable, CustomStringConvertible, Sendable {
    case outAndBack, laps, figureOfEight, crossesItself

    var description: String { rawValue }

    static let origin = Coordinate(latitude: 46.05, longitude: 14.5)

    /// One stage, points about 10 m apart.
    var coordinates: [Coordinate] {
        switch self {
        case .outAndBack:
            // 5 km east, and back on the far side of the road, 8 m away.
            let out = Self.line(from: Self.origin, azimuth: 80, metres: 5_000)
            let turn = Geodesic.direct(from: out.last ?? Self.origin, azimuth: 170, distance: 8)
            return out + Self.line(from: turn, azimuth: 260, metres: 5_000)
        case .laps:
            // Three laps of a 2 km circle.
            let lap = Self.circle(centre: Self.origin, radius: 318, from: 180, turns: 1)
            return lap + lap.dropFirst() + lap.dropFirst()
        case .figureOfEight:
            // Two circles that meet where the rider crosses from one to the other, ridden twice.
            let east = Geodesic.direct(from: Self.origin, azimuth: 90, distance: 400)
            let west = Geodesic.direct(from: Self.origin, azimuth: 270, distance: 400)
            let first = Self.circle(centre: east, radius: 400, from: 270, turns: 1)
            let second = Self.circle(centre: west, radius: 400, from: 90, turns: -1)
            let eight = first + second.dropFirst()
            return eight + eight.dropFirst()
        case .crossesItself:
            // A pretzel: east 3 km, north, back west across the way out, south across it again, and on.
            var points = Self.line(from: Self.origin, azimuth: 90, metres: 3_000)
            for (azimuth, metres) in [(0.0, 1_000.0), (270, 2_000), (180, 2_000), (90, 1_000), (0, 600), (90, 2_500)] {
                points += Self.line(from: points.last ?? Self.origin, azimuth: azimuth, metres: metres).dropFirst()
            }
            return points
        }
    }

    static func line(from start: Coordinate, azimuth: Double, metres: Double) -> [Coordinate] {
        let count = Int(metres / 10)
        return (0...count).map { Geodesic.direct(from: start, azimuth: azimuth, distance: Double($0) * metres / Double(count)) }
    }

    /// A circle ridden clockwise (`turns` > 0) or anticlockwise from the azimuth `from` of its centre.
    static func circle(centre: Coordinate, radius: Double, from: Double, turns: Int) -> [Coordinate] {
        let count = Int(2 * Double.pi * radius / 10)
        return (0...count).map { step in
            let angle = from + Double(turns) * 360 * Double(step) / Double(count)
            return Geodesic.direct(from: centre, azimuth: angle, distance: radius)
        }
    }
}

/// A ride along a one-stage course with GPS noise, stops, drop-outs and a detour, with its truth.
struct NoisyRide {
    /// What the receiver reports besides the position.
    enum Receiver: String, CaseIterable, CustomStringConvertible, Sendable {
        /// Position and time only.
        case bare
        /// Accuracy (a phone's 68% radius) and speed as well.
        case phone
        var description: String { rawValue }
    }

    struct Sample {
        var fix: Fix
        /// Metres along the course where the rider truly is, or was last on it.
        var along: Double
        /// Metres the rider truly is from the course.
        var offset: Double
    }

    let samples: [Sample]
    /// The indices of the samples of the detour.
    let detour: Range<Int>

    /// σ of the noise, in metres, east and north each.
    static let noise = 10.0
    /// Seconds between fixes.
    static let interval = 2.0
    /// Metres per second.
    static let speed = 5.0

    init(course: MadeCourse, receiver: Receiver, seed: UInt64) {
        let stage = MeasuredStage(Stage(coordinates: course.coordinates))
        var random = SeededGenerator(seed: seed)
        func gaussian() -> Double {
            let u = Double.random(in: Double.ulpOfOne..<1, using: &random)
            let v = Double.random(in: 0..<1, using: &random)
            return (-2 * log(u)).squareRoot() * cos(2 * .pi * v)
        }
        let length = stage.length
        var samples: [Sample] = []
        var time = 1_700_000_000.0
        var detour = 0..<0
        func emit(_ truth: Coordinate, along: Double, offset: Double, speed: Double) {
            let east = Geodesic.direct(from: truth, azimuth: 90, distance: gaussian() * Self.noise)
            let noisy = Geodesic.direct(from: east, azimuth: 0, distance: gaussian() * Self.noise)
            var fix = Fix(coordinate: noisy, time: time)
            if receiver == .phone {
                fix.accuracy = Self.noise * 1.5
                fix.speed = max(0, speed + gaussian() * 0.3)
            }
            samples.append(Sample(fix: fix, along: along, offset: offset))
            time += Self.interval
        }
        // Where things happen, as shares of the course.
        let stopAt = length * 0.2
        let dropAt = length * 0.45
        let detourAt = length * 0.7
        var (stopped, dropped, detoured) = (false, false, false)
        var along = 0.0
        // A few fixes standing at the start.
        for _ in 0..<5 { emit(stage.coordinate(atDistance: 0), along: 0, offset: 0, speed: 0) }
        // Setting off at 1 m/s².
        var speed = 0.0
        while speed < Self.speed {
            let next = min(speed + 1 * Self.interval, Self.speed)
            along += (speed + next) / 2 * Self.interval
            speed = next
            emit(stage.coordinate(atDistance: along), along: along, offset: 0, speed: speed)
        }
        while along < length {
            let here = stage.coordinate(atDistance: along)
            emit(here, along: along, offset: 0, speed: Self.speed)
            if !stopped, along >= stopAt {
                stopped = true
                // Braking at 1.5 m/s², a minute standing, and off again at 1 m/s².
                var speed = Self.speed
                while speed > 0 {
                    let next = max(speed - 1.5 * Self.interval, 0)
                    along += (speed + next) / 2 * Self.interval
                    speed = next
                    emit(stage.coordinate(atDistance: along), along: along, offset: 0, speed: speed)
                }
                let standing = stage.coordinate(atDistance: along)
                for _ in 0..<30 { emit(standing, along: along, offset: 0, speed: 0) }
                while speed < Self.speed {
                    let next = min(speed + 1 * Self.interval, Self.speed)
                    along += (speed + next) / 2 * Self.interval
                    speed = next
                    emit(stage.coordinate(atDistance: along), along: along, offset: 0, speed: speed)
                }
            }
            if !dropped, along >= dropAt {
                dropped = true
                // Two minutes without a fix, riding on.
                time += 120
                along += 120 * Self.speed
            }
            if !detoured, along >= detourAt {
                detoured = true
                // A wrong turn: 250 m down a side road at right angles, and back.
                let ahead = stage.coordinate(atDistance: min(along + 5, length))
                let left = Geodesic.inverse(from: here, to: ahead).initialAzimuth - 90
                let steps = Int(250 / (Self.speed * Self.interval))
                let first = samples.count
                for step in Array(1...steps) + Array((0..<steps).reversed()) {
                    let out = Double(step) * Self.speed * Self.interval
                    emit(Geodesic.direct(from: here, azimuth: left, distance: out), along: along, offset: out, speed: Self.speed)
                }
                detour = first..<samples.count
            }
            along += Self.speed * Self.interval
        }
        for _ in 0..<5 { emit(stage.coordinate(atDistance: length), along: length, offset: 0, speed: 0) }
        self.samples = samples
        self.detour = detour
    }
}
