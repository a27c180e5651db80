import Foundation
import RouteModel
import TestSupport

/// A ride east along a straight 3 km course with one detour 60 m north, whose fixes drift by one
/// offset before the detour and another after it: the receiver's drift changed while the rider was
/// away, so where it put the fixes before says little about where it puts them now.
struct DriftChangeRide: CustomStringConvertible, Sendable {
    /// The drift before the detour and after it, metres north of where the rider is (the course runs east).
    var before: Double
    var after: Double
    /// Seconds the rider stands on the course when back, before riding on.
    var standing: Double
    /// Metres per second, riding.
    var pace = 5.0

    var description: String {
        "drift \(Int(before)) m north before a detour and \(Int(after)) m after, standing \(Int(standing)) s when back"
    }

    /// One fix a second, each with where the rider truly is along the course and how far off it.
    struct Sample {
        var fix: Fix
        var along: Double
        var offset: Double
    }

    /// When the rider leaves the course, stands 60 m off, and is back on it.
    static let leaves = 240.0
    static let away = leaves + 15
    static let returning = away + 30
    static let back = returning + 15

    var samples: [Sample] {
        var random = SeededGenerator(seed: 45)
        func gaussian() -> Double {
            let u = Double.random(in: Double.ulpOfOne..<1, using: &random)
            let v = Double.random(in: 0..<1, using: &random)
            return (-2 * log(u)).squareRoot() * cos(2 * .pi * v)
        }
        let detourAlong = pace * Self.leaves
        var samples: [Sample] = []
        var (north, east) = (0.0, 0.0)
        for second in 0..<(Int(Self.back + standing) + 200) {
            let t = Double(second)
            let (along, off): (Double, Double) =
                switch t {
                case ..<Self.leaves: (pace * t, 0)
                case ..<Self.away: (detourAlong, 4 * (t - Self.leaves))
                case ..<Self.returning: (detourAlong, 60)
                case ..<Self.back: (detourAlong, 60 - 4 * (t - Self.returning))
                case ..<(Self.back + standing): (detourAlong, 0)
                default: (detourAlong + pace * (t - Self.back - standing), 0)
                }
            // The drift wanders a few metres about its offset, and moves from one offset to the
            // other while the rider is away.
            let share = min(max((t - Self.leaves) / (Self.back - Self.leaves), 0), 1)
            north = 0.9 * north + 1.5 * gaussian()
            east = 0.9 * east + 1.5 * gaussian()
            let drift = (east: east, north: before + (after - before) * share + north)
            let onCourse = Geodesic.direct(from: MadeCourse.origin, azimuth: 90, distance: along)
            let rider = Geodesic.direct(from: onCourse, azimuth: 0, distance: off)
            let shifted = Geodesic.direct(from: rider, azimuth: 0, distance: drift.north)
            let coordinate = Geodesic.direct(from: shifted, azimuth: 90, distance: drift.east)
            samples.append(Sample(fix: Fix(coordinate: coordinate, time: 1_700_000_000 + t), along: along, offset: off))
        }
        return samples
    }

    static let course = Route(stages: [Stage(coordinates: MadeCourse.line(from: MadeCourse.origin, azimuth: 90, metres: 3_000))])
}
