import TestSupport
import RouteModel
import RouteFormats
import MarkerSpec
import Testing

@Suite("Reading encoded polylines")
struct PolylineTests {
    /// The example in Google's "Encoded Polyline Algorithm Format" documentation.
    static let google = "_p~iF~ps|U_ulLnnqC_mqNvxq`@"
    static let googlePoints = [(38.5, -120.2), (40.7, -120.95), (43.252, -126.453)]

    @Test func decodesGooglesExample() throws {
        let route = try Route.parse(Array(Self.google.utf8), format: .polyline(precision: 5))
        let coordinates = try #require(route.stages.first?.coordinates)
        try #require(coordinates.count == Self.googlePoints.count)
        for (coordinate, (latitude, longitude)) in zip(coordinates, Self.googlePoints) {
            #expect(abs(coordinate.latitude - latitude) < 1e-9)
            #expect(abs(coordinate.longitude - longitude) < 1e-9)
        }
    }

    /// The same integers scaled by 10⁵ or 10⁶: OSRM's precision-6 reading is a tenth of Google's.
    @Test func precisionSixIsATenthOfPrecisionFive() throws {
        let five = try Route.parse(Array(Self.google.utf8), format: .polyline(precision: 5)).stages[0].coordinates
        let six = try Route.parse(Array(Self.google.utf8), format: .polyline(precision: 6)).stages[0].coordinates
        try #require(five.count == six.count)
        for (a, b) in zip(five, six) {
            #expect(abs(a.latitude - 10 * b.latitude) < 1e-9)
            #expect(abs(a.longitude - 10 * b.longitude) < 1e-9)
        }
    }

    @Test(arguments: ["  " + google, google + "\n", "\r\n\t" + google + " \n\n"])
    func surroundingWhitespaceIsTolerated(_ text: String) throws {
        let padded = try Route.parse(Array(text.utf8), format: .polyline(precision: 5))
        let plain = try Route.parse(Array(Self.google.utf8), format: .polyline(precision: 5))
        #expect(padded == plain)
    }
}
