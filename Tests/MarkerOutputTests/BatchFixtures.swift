import Foundation
import RouteModel
import MarkerSpec
import TestSupport

/// Paths of test inputs, found from this file.
enum BatchFixtures {
    /// Two stages of exactly 75 km and 123 km (per GeographicLib), named "Day 1" and "Day 2".
    static let twoStages = Repository.path("Tests/Fixtures/two-stages.geojson")

    static func temporaryFolder() throws -> String { try TemporaryFolder.make("markerpaint-batch").path }

    static func json(_ path: String) throws -> Any {
        try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path)))
    }
}
