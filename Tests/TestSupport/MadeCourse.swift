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
        case .crossesItself:
            var points = Self.line(from: Self.origin, azimuth: 90, metres: 3_000)
            for (azimuth, metres) in [(0.0, 1_000.0), (270, 2_000), (180, 2_000), (90, 1_000), (0, 600), (90, 2_500)] {
                points += Self.line(from: points.last ?? Self.origin, azimuth: azimuth, metres: metres).dropFirst()
            }
            return points
        }
    }

    public var route: Route { Route(stages: [Stage(coordinates: coordinates)]) }

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
