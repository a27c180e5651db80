import TestSupport
import RouteModel
import RouteFormats
import MarkerSpec
import Testing

@Suite("Reading GeoJSON")
struct GeoJSONTests {
    static func parse(_ text: String) throws -> Route {
        try Route.parse(Array(text.utf8), format: nil)
    }

    static let ljubljana = Coordinate(latitude: 46.05, longitude: 14.5)
    static let kranj = Coordinate(latitude: 46.24, longitude: 14.36)
    static let bled = Coordinate(latitude: 46.37, longitude: 14.11)

    struct Case: Sendable, CustomTestStringConvertible {
        var testDescription: String
        var json: String
        var stages: [Stage]
    }

    /// Positions are [longitude, latitude]: each case lists them that way round and expects them swapped.
    static let cases: [Case] = [
        Case(
            testDescription: "LineString",
            json: #"{"type": "LineString", "coordinates": [[14.5, 46.05], [14.36, 46.24]]}"#,
            stages: [Stage(coordinates: [ljubljana, kranj])]),
        Case(
            testDescription: "elevation is ignored",
            json: #"{"type": "LineString", "coordinates": [[14.5, 46.05, 295.5], [14.36, 46.24, 385]]}"#,
            stages: [Stage(coordinates: [ljubljana, kranj])]),
        Case(
            testDescription: "MultiLineString: each line a stage",
            json: #"{"type": "MultiLineString", "coordinates": [[[14.5, 46.05], [14.36, 46.24]], [[14.36, 46.24], [14.11, 46.37]]]}"#,
            stages: [Stage(coordinates: [ljubljana, kranj]), Stage(coordinates: [kranj, bled])]),
        Case(
            testDescription: "Feature with a name",
            json:
                #"{"type": "Feature", "properties": {"name": "Commute"}, "geometry": {"type": "LineString", "coordinates": [[14.5, 46.05], [14.36, 46.24]]}}"#,
            stages: [Stage(name: "Commute", coordinates: [ljubljana, kranj])]),
        Case(
            testDescription: "FeatureCollection: names kept, points passed over",
            json: #"""
                {"type": "FeatureCollection", "features": [
                  {"type": "Feature", "properties": {"name": "Day 1"}, "geometry": {"type": "LineString", "coordinates": [[14.5, 46.05], [14.36, 46.24]]}},
                  {"type": "Feature", "properties": {"name": "Cafe"}, "geometry": {"type": "Point", "coordinates": [14.4, 46.1]}},
                  {"type": "Feature", "properties": null, "geometry": null},
                  {"type": "Feature", "properties": {}, "geometry": {"type": "LineString", "coordinates": [[14.36, 46.24], [14.11, 46.37]]}}
                ]}
                """#,
            stages: [Stage(name: "Day 1", coordinates: [ljubljana, kranj]), Stage(coordinates: [kranj, bled])]),
        Case(
            testDescription: "MultiLineString feature: every line named after the feature",
            json: #"""
                {"type": "FeatureCollection", "features": [{"type": "Feature", "properties": {"name": "Tour"},
                  "geometry": {"type": "MultiLineString", "coordinates": [[[14.5, 46.05], [14.36, 46.24]], [[14.36, 46.24], [14.11, 46.37]]]}}]}
                """#,
            stages: [Stage(name: "Tour", coordinates: [ljubljana, kranj]), Stage(name: "Tour", coordinates: [kranj, bled])]),
        Case(
            testDescription: "GeometryCollection",
            json:
                #"{"type": "GeometryCollection", "geometries": [{"type": "Point", "coordinates": [1, 2]}, {"type": "LineString", "coordinates": [[14.5, 46.05], [14.36, 46.24]]}]}"#,
            stages: [Stage(coordinates: [ljubljana, kranj])]),
        Case(
            testDescription: "escaped name, byte order mark and whitespace",
            json: "\u{FEFF}\n  "
                + #"{"type": "Feature", "properties": {"name": "Tour \u00e0 V\u00e9lo \ud83d\udeb2 \"2\""}, "geometry": {"type": "LineString", "coordinates": [[14.5, 46.05], [14.36, 46.24]]}}"#
                + "\n\n",
            stages: [Stage(name: "Tour à Vélo 🚲 \"2\"", coordinates: [ljubljana, kranj])]),
    ]

    @Test(arguments: cases)
    func readsLines(_ example: Case) throws {
        let route = try Self.parse(example.json)
        #expect(route.stages == example.stages)
    }

    @Test func singlePointLineIsDroppedWithAWarning() throws {
        let route = try Self.parse(
            #"""
            {"type": "FeatureCollection", "features": [
              {"type": "Feature", "properties": {"name": "Stop"}, "geometry": {"type": "LineString", "coordinates": [[14.5, 46.05], [14.5, 46.05]]}},
              {"type": "Feature", "properties": {}, "geometry": {"type": "LineString", "coordinates": [[14.5, 46.05], [14.36, 46.24]]}}
            ]}
            """#)
        #expect(route.stages.count == 1)
        #expect(route.warnings.count == 1)
        #expect(route.warnings.first?.contains(#"feature 1 "Stop""#) == true)
        #expect(route.warnings.first?.contains("fewer than 2 distinct points") == true)
    }

    /// Numbers are read to the same double Swift's own parser gives, on the fast path and off it.
    @Test(arguments: [
        "14.5", "-0", "-0.0", "46.0514", "14.68915544220048", "89.99999999999999", "0.000123", "1e1", "-1.5E-3",
        "0.30000000000000004", "4.9e-324", "45.000000000000000000001", "8.99999999999999999999e1", "0.1000000000000000055511151231257827",
    ])
    func numbersAreExact(_ text: String) throws {
        let route = try Self.parse(#"{"type": "LineString", "coordinates": [[1, 2], [3, \#(text)]]}"#)
        let parsed = try #require(route.stages.first?.coordinates.last?.latitude)
        let expected = try #require(Double(text))
        #expect(parsed.bitPattern == expected.bitPattern)
    }
}
