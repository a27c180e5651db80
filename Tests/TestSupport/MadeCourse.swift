import Foundation
public import RouteModel

/// Courses whose legs meet or run close, where a tracker can take the rider for being on another pass.
public enum MadeCourse: String, CaseIterable, CustomStringConvertible, Sendable {
    /// 5 km out along a road and back on its far side, 12 m away, the other way.
    case roadSides
    /// Eight legs of 400 m up a slope, 45 m apart, joined by hairpins.
    case switchbacks
    /// Three laps of a 2 km circle.
    case laps
    /// Two circles that meet where the course starts, ridden twice.
    case figureOfEight
    /// One lap of a 6 km loop that ends where it starts.
    case loop
    /// East, north, back west across the way out, south across it again, and on.
    case crossesItself
    /// 5 km out along a path and back down the same line: the commonest route after the loop.
    case outAndBack
    /// 5 km out along a road and back in the other lane, 8 m away.
    case outAndBackLanes
    /// 5 km out and back on a way 30 m from the way out.
    case outAndBackApart
    /// 2 km out along a stick, round a 3 km loop to the stick's end, and back down the stick.
    case lollipop
    /// 3 km east, 1 km up a spur to a summit and back down it, and 3 km on east.
    case summitSpur

    /// The courses that turn back along themselves, whose turn the tracker must follow.
    public static let turnarounds: [MadeCourse] = [.outAndBack, .outAndBackLanes, .outAndBackApart, .lollipop, .summitSpur]

    public var description: String { rawValue }

    public static let origin = Coordinate(latitude: 46.05, longitude: 14.5)

    /// One stage, points about 10 m apart.
    public var coordinates: [Coordinate] {
        switch self {
        case .roadSides:
            let out = Self.line(from: Self.origin, azimuth: 80, metres: 5_000)
            let turn = Geodesic.direct(from: out.last ?? Self.origin, azimuth: 170, distance: 12)
            return out + Self.line(from: turn, azimuth: 260, metres: 5_000)
        case .switchbacks:
            // Legs north-east and south-west in turn, each hairpin a half circle 45 m across.
            var points = Self.line(from: Self.origin, azimuth: 45, metres: 400)
            for leg in 1..<8 {
                let end = points.last ?? Self.origin
                let outward = leg % 2 == 1 ? 45.0 : 225.0
                // The hairpin's centre is 22.5 m to the side the next leg lies on (north-west).
                let centre = Geodesic.direct(from: end, azimuth: 315, distance: 22.5)
                let hairpin = Self.arc(centre: centre, radius: 22.5, from: 135, degrees: leg % 2 == 1 ? -180 : 180)
                points += hairpin.dropFirst()
                points += Self.line(from: points.last ?? end, azimuth: outward + 180, metres: 400).dropFirst()
            }
            return points
        case .laps:
            let lap = Self.circle(centre: Self.origin, radius: 318, from: 180, turns: 1)
            return lap + lap.dropFirst() + lap.dropFirst()
        case .figureOfEight:
            // The first circle starts at the crossing, the origin, which is the second's start too.
            let east = Geodesic.direct(from: Self.origin, azimuth: 90, distance: 400)
            let west = Geodesic.direct(from: Self.origin, azimuth: 270, distance: 400)
            let first = Self.circle(centre: east, radius: 400, from: 270, turns: 1)
            let second = Self.circle(centre: west, radius: 400, from: 90, turns: -1)
            let eight = first + second.dropFirst()
            return eight + eight.dropFirst()
        case .loop:
            // A rounded rectangle 2 km by 1 km: the finish is the start.
            var points = [Self.origin]
            for (azimuth, metres) in [(90.0, 2_000.0), (0, 1_000), (270, 2_000), (180, 1_000)] {
                points += Self.line(from: points.last ?? Self.origin, azimuth: azimuth, metres: metres).dropFirst()
            }
            return points
        case .outAndBack, .outAndBackLanes, .outAndBackApart:
            let apart: Double = self == .outAndBack ? 0 : self == .outAndBackLanes ? 8 : 30
            let out = Self.line(from: Self.origin, azimuth: 80, metres: 5_000)
            // Back on the right of the way back, as one keeps right.
            let back = out.reversed().map { apart == 0 ? $0 : Geodesic.direct(from: $0, azimuth: 350, distance: apart) }
            return out + back.dropFirst(apart == 0 ? 1 : 0)
        case .lollipop:
            let stick = Self.line(from: Self.origin, azimuth: 90, metres: 2_000)
            let end = stick.last ?? Self.origin
            let loop = Self.circle(centre: Geodesic.direct(from: end, azimuth: 90, distance: 480), radius: 480, from: 270, turns: 1)
            let back: [Coordinate] = stick.reversed()
            return stick + loop.dropFirst() + back.dropFirst()
        case .summitSpur:
            let approach = Self.line(from: Self.origin, azimuth: 90, metres: 3_000)
            let fork = approach.last ?? Self.origin
            let spur = Self.line(from: fork, azimuth: 0, metres: 1_000)
            let down: [Coordinate] = spur.reversed()
            return approach + spur.dropFirst() + down.dropFirst() + Self.line(from: fork, azimuth: 90, metres: 3_000).dropFirst()
        case .crossesItself:
            var points = Self.line(from: Self.origin, azimuth: 90, metres: 3_000)
            for (azimuth, metres) in [(0.0, 1_000.0), (270, 2_000), (180, 2_000), (90, 1_000), (0, 600), (90, 2_500)] {
                points += Self.line(from: points.last ?? Self.origin, azimuth: azimuth, metres: metres).dropFirst()
            }
            return points
        }
    }

    public var route: Route { Route(stages: [Stage(coordinates: coordinates)]) }

    /// The index in `coordinates` of the point where the course turns back along itself: the far
    /// end of an out-and-back, where a lollipop's loop meets its stick again, the summit; nil for
    /// the courses that do not.
    public var turnIndex: Int? {
        switch self {
        case .outAndBack, .outAndBackLanes, .outAndBackApart: Self.line(from: Self.origin, azimuth: 80, metres: 5_000).count - 1
        case .lollipop:
            Self.line(from: Self.origin, azimuth: 90, metres: 2_000).count - 1 + Self.circle(centre: Self.origin, radius: 480, from: 270, turns: 1).count - 1
        case .summitSpur:
            Self.line(from: Self.origin, azimuth: 90, metres: 3_000).count - 1 + Self.line(from: Self.origin, azimuth: 0, metres: 1_000).count - 1
        default: nil
        }
    }

    public static func line(from start: Coordinate, azimuth: Double, metres: Double) -> [Coordinate] {
        let count = max(Int(metres / 10), 1)
        return (0...count).map { Geodesic.direct(from: start, azimuth: azimuth, distance: Double($0) * metres / Double(count)) }
    }

    /// A circle ridden clockwise (`turns` > 0) or anticlockwise from the azimuth `from` of its centre.
    public static func circle(centre: Coordinate, radius: Double, from: Double, turns: Int) -> [Coordinate] {
        arc(centre: centre, radius: radius, from: from, degrees: Double(turns) * 360)
    }

    /// Points about 10 m apart on a circle about `centre`, from the azimuth `from` through `degrees`
    /// (clockwise when positive).
    public static func arc(centre: Coordinate, radius: Double, from: Double, degrees: Double) -> [Coordinate] {
        let count = max(Int(abs(degrees) / 360 * 2 * Double.pi * radius / 10), 4)
        return (0...count).map { step in
            Geodesic.direct(from: centre, azimuth: from + degrees * Double(step) / Double(count), distance: radius)
        }
    }
}
