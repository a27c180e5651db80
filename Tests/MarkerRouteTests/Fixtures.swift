import Foundation
import RouteModel
import MarkerSpec
import TestSupport
import Testing

/// Test inputs on disk, found from this file's location so tests run from any working directory.
enum Fixtures {
    /// Tests/MarkerRouteTests/Fixtures, where make_reference.py writes its output.
    static let directory = Repository.root.appendingPathComponent("Tests/MarkerRouteTests/Fixtures")

    static func bytes(_ url: URL) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: url))
    }

    /// The values make_reference.py computed with geographiclib.
    static func reference() throws -> Reference {
        try JSONDecoder().decode(Reference.self, from: Data(contentsOf: directory.appendingPathComponent("reference.json")))
    }
}

/// reference.json: lengths, marker positions and geodesics computed by geographiclib, not by this package.
struct Reference: Decodable, Sendable {
    struct RouteEntry: Decodable, Sendable, CustomTestStringConvertible {
        var path: String
        var stages: [StageEntry]
        var markers: [MarkerEntry]
        /// Only markers at multiples of this and each stage's last are listed, where a route has thousands.
        var sample: Int?
        var testDescription: String { String(path.split(separator: "/").last ?? "") }
    }

    struct StageEntry: Decodable, Sendable {
        var name: String?
        var points: Int
        var length: Double
        /// The length the stage was built to, for the fixtures the script makes.
        var nominal: Double?
    }

    struct MarkerEntry: Decodable, Sendable {
        var unit: Marker.Unit
        var cumulative: Bool
        var stage: Int
        var distance: Int
        var latitude: Double
        var longitude: Double
    }

    struct InverseCase: Decodable, Sendable, CustomTestStringConvertible {
        var name: String
        var lat1, lon1, lat2, lon2: Double
        var distance, azimuth1, azimuth2: Double
        var testDescription: String { name }
    }

    struct DirectCase: Decodable, Sendable, CustomTestStringConvertible {
        var name: String
        var lat1, lon1, azimuth, distance, lat2, lon2: Double
        var testDescription: String { name }
    }

    var geographiclib: String
    var routes: [RouteEntry]
    var inverse: [InverseCase]
    var direct: [DirectCase]

    func route(endingWith name: String) throws -> RouteEntry {
        try #require(routes.first { $0.path.hasSuffix(name) })
    }
}

/// Metres between two nearby points, from degrees on a local flat approximation.
///
/// Good to well under 1 % for points metres apart, which is all a millimetre tolerance needs, and
/// independent of the geodesic code under test.
func metresBetween(_ a: Coordinate, _ b: Coordinate) -> Double {
    let metresPerDegree = 111_320.0
    let north = (a.latitude - b.latitude) * metresPerDegree
    let east = remainder(a.longitude - b.longitude, 360) * metresPerDegree * cos(a.latitude * .pi / 180)
    return (north * north + east * east).squareRoot()
}

/// The difference of two angles in degrees, taking the short way round.
func angleDifference(_ a: Double, _ b: Double) -> Double {
    abs(remainder(a - b, 360))
}

extension RouteError {
    /// Whether the message has every fragment, and is one line.
    func says(_ fragments: [String]) -> Bool {
        !message.contains("\n") && fragments.allSatisfy { message.contains($0) }
    }
}
