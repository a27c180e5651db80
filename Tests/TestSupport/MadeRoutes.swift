import Foundation
public import RouteModel

/// Routes made for the placement tests, each the shape that piled markers up under the app's zoom
/// table: long, far north, many short stages, out-and-back, laps, a figure of eight, a route that
/// crosses itself, a short hike. Deterministic: the same points on every run.
public enum MadeRoutes {
    public struct Made: Sendable {
        public let name: String
        public let route: Route
    }

    public static let all: [Made] = [
        Made(name: "2,000 km along 45°N", route: long),
        Made(name: "300 km at 80°N", route: arctic),
        Made(name: "a city tour of 12 stages", route: cityTour),
        Made(name: "10 km out and back on the other side of the road", route: outAndBack),
        Made(name: "4 laps of 5 km", route: laps),
        Made(name: "a figure of eight", route: figureEight),
        Made(name: "a route crossing itself 5 times", route: selfCrossing),
        Made(name: "a 3 km hike", route: shortHike),
        Made(name: "a pass road of 24 hairpins", route: switchbacks),
        Made(name: "a 60 km ride with 200 waypoints", route: waypointRide),
    ]

    public static let metresPerDegree = 111_320.0

    /// The point `east` and `north` metres from `origin`, on a local flat map (fine over tens of km).
    public static func offset(_ origin: Coordinate, east: Double, north: Double) -> Coordinate {
        Coordinate(
            latitude: origin.latitude + north / metresPerDegree,
            longitude: origin.longitude + east / (metresPerDegree * cos(origin.latitude * .pi / 180)))
    }

    /// 2,000 km east along 45°N, a point every 500 m, gently winding north and south.
    public static let long: Route = {
        var points: [Coordinate] = []
        var longitude = 0.0
        for index in 0...4000 {
            let latitude = 45 + 0.05 * sin(Double(index) / 200)
            points.append(Coordinate(latitude: latitude, longitude: longitude))
            longitude += 500 / (metresPerDegree * cos(latitude * .pi / 180))
        }
        return Route(stages: [Stage(name: "east", coordinates: points)])
    }()

    /// 300 km at 80°N, where Mercator stretches every distance nearly sixfold.
    public static let arctic: Route = {
        let origin = Coordinate(latitude: 80, longitude: 10)
        let points = (0...600).map { index in
            offset(origin, east: Double(index) * 480, north: 4000 * sin(Double(index) / 40))
        }
        return Route(stages: [Stage(name: "north", coordinates: points)])
    }()

    /// Twelve stages of 3 to 5 km, each a random walk starting somewhere in a 5 km square of a city.
    public static let cityTour: Route = {
        var random = SeededGenerator(seed: 12)
        let centre = Coordinate(latitude: 48.8566, longitude: 2.3522)
        var stages: [Stage] = []
        for number in 1...12 {
            var position = offset(
                centre, east: Double.random(in: -2500...2500, using: &random), north: Double.random(in: -2500...2500, using: &random))
            var heading = Double.random(in: 0..<(2 * .pi), using: &random)
            var points = [position]
            for _ in 0..<Int.random(in: 60...100, using: &random) {
                heading += Double.random(in: -0.6...0.6, using: &random)
                position = offset(position, east: 50 * cos(heading), north: 50 * sin(heading))
                points.append(position)
            }
            stages.append(Stage(name: "stage \(number)", coordinates: points))
        }
        return Route(stages: stages)
    }()

    /// 10 km out along a straight road (a geodesic, so the legs' kilometres meet) and back on its
    /// other side, 8 m away.
    public static let outAndBack: Route = {
        let origin = Coordinate(latitude: 46.05, longitude: 14.5)
        let out = (0...400).map { index in Geodesic.direct(from: origin, azimuth: 80, distance: Double(index) * 25) }
        let back = out.reversed().map { Geodesic.direct(from: $0, azimuth: -10, distance: 8) }
        return Route(stages: [Stage(name: "there and back", coordinates: out + back)])
    }()

    /// Four laps of a 5 km circuit, each lap's points scattered by a metre or two of GPS noise, so
    /// that each lap's kilometres stand a few metres short of the last lap's.
    public static let laps: Route = {
        var random = SeededGenerator(seed: 4)
        let centre = Coordinate(latitude: 45.5, longitude: 9.2)
        let radius = 5000 / (2 * Double.pi)
        var points: [Coordinate] = []
        for _ in 0..<4 {
            for step in 0..<200 {
                let point = Geodesic.direct(from: centre, azimuth: 180 + Double(step) / 200 * 360, distance: radius)
                let noise = Double.random(in: 0..<360, using: &random)
                points.append(Geodesic.direct(from: point, azimuth: noise, distance: Double.random(in: 0...1.5, using: &random)))
            }
        }
        points.append(Geodesic.direct(from: centre, azimuth: 180, distance: radius))
        return Route(stages: [Stage(name: "circuit", coordinates: points)])
    }()

    /// A figure of eight of two 3 km loops through one crossing.
    public static let figureEight: Route = {
        let origin = Coordinate(latitude: 51.5, longitude: -0.12)
        let points = (0...600).map { index in
            // Gerono's lemniscate: x = a sin t, y = a sin t cos t, crossing itself at the centre.
            let t = Double(index) / 600 * 2 * .pi
            return offset(origin, east: 1900 * sin(t), north: 1900 * sin(t) * cos(t))
        }
        return Route(stages: [Stage(name: "eight", coordinates: points)])
    }()

    /// A prolate cycloid: five loops along a line, each crossing the route before it.
    public static let selfCrossing: Route = {
        let origin = Coordinate(latitude: 40.4, longitude: -3.7)
        let points = (0...1000).map { index in
            let t = Double(index) / 1000 * 5 * 2 * .pi
            return offset(origin, east: 400 * t - 900 * sin(t), north: 900 - 900 * cos(t))
        }
        return Route(stages: [Stage(name: "loops", coordinates: points)])
    }()

    /// A 3 km walk: at zoom 13 its kilometres are about 150 points apart.
    public static let shortHike: Route = {
        let origin = Coordinate(latitude: 46.4, longitude: 13.8)
        let points = (0...120).map { index in offset(origin, east: Double(index) * 25, north: 60 * sin(Double(index) / 15)) }
        return Route(stages: [Stage(name: "hike", coordinates: points)])
    }()

    /// A pass road: 24 legs of 600 m across a slope, each 70 m above the last, joined by hairpins,
    /// so readings a kilometre apart along the road lie a few tens of metres apart on the map.
    public static let switchbacks: Route = {
        let origin = Coordinate(latitude: 46.43, longitude: 13.74)
        var points: [Coordinate] = []
        for leg in 0..<24 {
            let north = Double(leg) * 70
            for step in 0...12 {
                let across = Double(step) * 50
                points.append(offset(origin, east: leg.isMultiple(of: 2) ? across : 600 - across, north: north + Double(step) * 1.5))
            }
            // The hairpin: a half circle up to the next leg.
            for step in 1..<6 {
                let angle = Double(step) / 6 * .pi
                let east = leg.isMultiple(of: 2) ? 600 + 30 * sin(angle) : -30 * sin(angle)
                points.append(offset(origin, east: east, north: north + 18 + 26 * (1 - cos(angle))))
            }
        }
        return Route(stages: [Stage(name: "pass", coordinates: points)])
    }()

    /// 60 km of winding road with 200 points of interest: every icon, some with colours, names and
    /// descriptions, beside the road or on it, a dozen in one village, some on the start and end.
    public static let waypointRide: Route = {
        let origin = Coordinate(latitude: 46.05, longitude: 14.5)
        let points = (0...1200).map { index in offset(origin, east: Double(index) * 50, north: 800 * sin(Double(index) / 60)) }
        let symbols = [
            "Drinking Water", "Restaurant", "Cafe", "Summit", "Scenic Area", "Campground", "Shelter", "Danger Area", "Information",
            "Parking Area", "Restroom", "Bike Shop", "Flag, Blue", "mountain", "drinking-water",
        ]
        var random = SeededGenerator(seed: 200)
        var waypoints: [Waypoint] = []
        for number in 1...200 {
            let coordinate: Coordinate
            switch number {
            case 1: coordinate = points[0]
            case 2: coordinate = points[points.count - 1]
            case 3...14: coordinate = offset(points[600], east: Double(number % 4) * 30 - 45, north: Double(number / 4) * 30 - 60)
            default:
                let along = points[Int(random.next() % UInt64(points.count))]
                coordinate = offset(along, east: Double(Int(random.next() % 200)) - 100, north: Double(Int(random.next() % 200)) - 100)
            }
            waypoints.append(
                Waypoint(
                    coordinate: coordinate, name: "Point \(number)", description: number.isMultiple(of: 3) ? "Open daily, 8-20; water and food" : nil,
                    symbol: symbols[number % symbols.count], colour: number.isMultiple(of: 17) ? "#8E24AA" : nil))
        }
        return Route(stages: [Stage(name: "ride", coordinates: points)], waypoints: waypoints)
    }()
}
