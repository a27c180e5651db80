public import Foundation
public import MarkerSpec
public import RouteModel
public import Testing

/// Test inputs on disk (Tests/Fixtures), found from this file's location so tests run from any working directory.
public enum Fixtures {
    /// Tests/Fixtures, where make_reference.py writes its output.
    public static let directory = Repository.root.appendingPathComponent("Tests/Fixtures")

    /// The path of fixture `name`.
    public static func path(_ name: String) -> String { directory.appendingPathComponent(name).path }

    public static func bytes(_ url: URL) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: url))
    }

    /// The values make_reference.py computed with geographiclib.
    public static func reference() throws -> Reference {
        try JSONDecoder().decode(Reference.self, from: Data(contentsOf: directory.appendingPathComponent("reference.json")))
    }
}

/// reference.json: lengths, marker positions and geodesics computed by geographiclib, not by this package.
public struct Reference: Decodable, Sendable {
    public struct RouteEntry: Decodable, Sendable, CustomTestStringConvertible {
        public var path: String
        public var stages: [StageEntry]
        public var markers: [MarkerEntry]
        /// Only markers at multiples of this and each stage's last are listed, where a route has thousands.
        public var sample: Int?
        public var testDescription: String { String(path.split(separator: "/").last ?? "") }
    }

    public struct StageEntry: Decodable, Sendable {
        public var name: String?
        public var points: Int
        public var length: Double
        /// The length the stage was built to, for the fixtures the script makes.
        public var nominal: Double?
    }

    public struct MarkerEntry: Decodable, Sendable {
        public var unit: Marker.Unit
        public var cumulative: Bool
        public var stage: Int
        public var distance: Int
        public var latitude: Double
        public var longitude: Double
    }

    public struct InverseCase: Decodable, Sendable, CustomTestStringConvertible {
        public var name: String
        public var lat1, lon1, lat2, lon2: Double
        public var distance, azimuth1, azimuth2: Double
        public var testDescription: String { name }
    }

    public struct DirectCase: Decodable, Sendable, CustomTestStringConvertible {
        public var name: String
        public var lat1, lon1, azimuth, distance, lat2, lon2: Double
        public var testDescription: String { name }
    }

    public var geographiclib: String
    public var routes: [RouteEntry]
    public var inverse: [InverseCase]
    public var direct: [DirectCase]

    public func route(endingWith name: String) throws -> RouteEntry {
        try #require(routes.first { $0.path.hasSuffix(name) })
    }
}

/// Metres between two nearby points, from degrees on a local flat approximation.
///
/// Good to well under 1 % for points metres apart, which is all a millimetre tolerance needs, and
/// independent of the geodesic code under test.
public func metresBetween(_ a: Coordinate, _ b: Coordinate) -> Double {
    let metresPerDegree = 111_320.0
    let north = (a.latitude - b.latitude) * metresPerDegree
    let east = remainder(a.longitude - b.longitude, 360) * metresPerDegree * cos(a.latitude * .pi / 180)
    return (north * north + east * east).squareRoot()
}

/// The difference of two angles in degrees, taking the short way round.
public func angleDifference(_ a: Double, _ b: Double) -> Double {
    abs(remainder(a - b, 360))
}

extension RouteError {
    /// Whether the message has every fragment, and is one line.
    public func says(_ fragments: [String]) -> Bool {
        !message.contains("\n") && fragments.allSatisfy { message.contains($0) }
    }
}
