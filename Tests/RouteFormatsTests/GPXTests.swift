import Foundation
import RouteModel
import RouteFormats
import MarkerSpec
import TestSupport
import Testing

@Suite("Reading GPX")
struct GPXTests {
    static func parse(_ text: String) throws -> Route {
        try Route.parse(Array(text.utf8), format: nil)
    }

    /// Spellings of one coordinate: plain decimals take the fast path, the rest the general one.
    static let spellings = [
        "46", "-46", "46.5", "-0.000001", "0.1", ".5", "-.5", "-0", "0", "007.25", "45.123456789012", "-179.99999999999",
        "45.1234567890123", "1.00000000000001", "12345678901234.5", "5.", "+5", " 5 ", "5 ", "1e1", "4.5E+1", "0x1p4", "inf", "nan",
    ]

    @Test(
        "every coordinate reads exactly as Double(_:) reads it, plain decimals on the fast path or anything else on the general one",
        arguments: spellings)
    func coordinatesReadAsDoubleReadsThem(_ spelling: String) throws {
        let gpx = #"<gpx><trk><trkseg><trkpt lat="10" lon="\#(spelling)"/><trkpt lat="\#(spelling)" lon="11"/></trkseg></trk></gpx>"#
        let expected = Double(spelling) ?? Double(spelling.trimmingCharacters(in: .whitespaces))
        guard let expected, expected.isFinite, abs(expected) <= 90 else {
            #expect(throws: RouteError.self) { try Self.parse(gpx) }
            return
        }
        let coordinates = try Self.parse(gpx).stages[0].coordinates
        #expect(coordinates[0].longitude.bitPattern == expected.bitPattern)
        #expect(coordinates[1].latitude.bitPattern == expected.bitPattern)
    }

    @Test("random plain decimals of up to 15 digits read bit for bit as Double(_:) reads them")
    func randomDecimals() throws {
        var generator = SeededGenerator(seed: 0x4D41_524B_4552)
        var spellings: [String] = []
        for _ in 0..<5_000 {
            let integer = Int.random(in: 0...89, using: &generator)
            let fraction = String((0..<Int.random(in: 0...13, using: &generator)).map { _ in "0123456789".randomElement(using: &generator)! })
            spellings.append((Bool.random(using: &generator) ? "-" : "") + "\(integer)" + (fraction.isEmpty ? "" : "." + fraction))
        }
        let points = spellings.map { #"<trkpt lat="\#($0)" lon="\#($0)"/>"# }.joined()
        let coordinates = try Self.parse("<gpx><trk><trkseg>\(points)</trkseg></trk></gpx>").stages[0].coordinates
        try #require(coordinates.count == spellings.count)
        for (coordinate, spelling) in zip(coordinates, spellings) {
            let expected = try #require(Double(spelling))
            #expect(coordinate.latitude.bitPattern == expected.bitPattern && coordinate.longitude.bitPattern == expected.bitPattern, "\(spelling)")
        }
    }

    @Test func tracksAndRoutesAreStagesAndWaypointsAreIgnored() throws {
        let route = try Self.parse(
            """
            <?xml version="1.0" encoding="UTF-8"?>
            <gpx version="1.1" creator="test" xmlns="http://www.topografix.com/GPX/1/1">
              <wpt lat="10" lon="10"><name>Not on the way</name></wpt>
              <trk>
                <name> Morning </name>
                <trkseg><trkpt lat="46.0" lon="14.0"/><trkpt lat="46.1" lon="14.1"/></trkseg>
                <trkseg></trkseg>
                <trkseg><trkpt lat="46.2" lon="14.2"><ele>300</ele></trkpt></trkseg>
              </trk>
              <rte>
                <name>Back</name>
                <rtept lat="46.2" lon="14.2"/><rtept lat="46.0" lon="14.0"/>
              </rte>
            </gpx>
            """)
        #expect(
            route.stages == [
                Stage(
                    name: "Morning",
                    coordinates: [
                        Coordinate(latitude: 46.0, longitude: 14.0), Coordinate(latitude: 46.1, longitude: 14.1),
                        Coordinate(latitude: 46.2, longitude: 14.2),
                    ]),
                Stage(name: "Back", coordinates: [Coordinate(latitude: 46.2, longitude: 14.2), Coordinate(latitude: 46.0, longitude: 14.0)]),
            ])
        #expect(route.warnings.isEmpty)
    }

    /// GPX 1.0 without a namespace, a prefixed GPX namespace, and extensions reusing GPX names deeper down.
    @Test(arguments: [
        #"<gpx version="1.0"><trk><trkseg><trkpt lat="1" lon="2"/><trkpt lat="3" lon="4"/></trkseg></trk></gpx>"#,
        #"<g:gpx xmlns:g="http://www.topografix.com/GPX/1/1"><g:trk><g:trkseg><g:trkpt lat="1" lon="2"/><g:trkpt lat="3" lon="4"/></g:trkseg></g:trk></g:gpx>"#,
        #"<gpx><trk><extensions><x:trkseg xmlns:x="urn:x"><x:trkpt lat="50" lon="50"/></x:trkseg></extensions><trkseg><trkpt lat="1" lon="2"><extensions><trkpt lat="9" lon="9"/></extensions></trkpt><trkpt lat="3" lon="4"/></trkseg></trk></gpx>"#,
    ])
    func pointsAreFoundByPlaceNotByNamespace(_ text: String) throws {
        let route = try Self.parse(text)
        #expect(route.stages.map(\.coordinates) == [[Coordinate(latitude: 1, longitude: 2), Coordinate(latitude: 3, longitude: 4)]])
    }

    @Test func routeFileIsOneStageOfRoutePoints() throws {
        let route = try Route.load(path: Repository.sharedRoutes.appendingPathComponent("route.gpx").path, format: nil)
        #expect(route.stages.count == 1)
        #expect(route.stages.first?.coordinates.count == 55)
    }

    /// Leading blank lines are cut for libxml2, but errors still give the line in the file as written.
    @Test func leadingWhitespaceIsToleratedAndLinesStillCount() throws {
        let good = "\n\n  <?xml version=\"1.0\"?>\n<gpx><rte><rtept lat=\"1\" lon=\"2\"/><rtept lat=\"3\" lon=\"4\"/></rte></gpx>\n"
        #expect(try Self.parse(good).stages.count == 1)
        let bad = "\n\n  <?xml version=\"1.0\"?>\n<gpx><rte>\n<rtept lat=\"1\" lon=\"2\"/>\n<rtept lat=\"95\" lon=\"4\"/></rte></gpx>\n"
        let error = try #require(throws: RouteError.self) { try Self.parse(bad) }
        #expect(error.says(["line 6", "route 1, point 2", "latitude 95.0 is out of range"]))
    }
}
