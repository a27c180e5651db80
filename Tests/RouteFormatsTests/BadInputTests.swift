import Foundation
import RouteModel
import RouteFormats
import MarkerSpec
import TestSupport
import Testing

/// Every kind of bad input is refused with one line naming the problem and where it is.
@Suite("Refusing bad input")
struct BadInputTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var testDescription: String
        var input: [UInt8]
        var format: RouteFormat?
        /// Parts of the message: the place and the problem.
        var says: [String]

        init(_ description: String, _ input: String, _ format: RouteFormat? = nil, says: [String]) {
            testDescription = description
            self.input = Array(input.utf8)
            self.format = format
            self.says = says
        }
    }

    /// A FeatureCollection of `features` two-point lines, with `bad` in place of feature 3's 17th position.
    static func collection(bad: String) -> String {
        let line = (1...20).map { "[14.\($0), 46.\($0)]" }
        let features = (1...4).map { number in
            var positions = line
            if number == 3 { positions[16] = bad }
            return
                #"{"type": "Feature", "properties": {}, "geometry": {"type": "LineString", "coordinates": [\#(positions.joined(separator: ", "))]}}"#
        }
        return #"{"type": "FeatureCollection", "features": [\#(features.joined(separator: ",\n"))]}"#
    }

    static let gpxHeader = "<?xml version=\"1.0\"?>\n<gpx version=\"1.1\">\n<trk><name>Loop</name><trkseg>\n"

    static let cases: [Case] = [
        // Empty and unrecognised input.
        Case("empty", "", says: ["the input is empty"]),
        Case("only whitespace", " \n\t\r\n", says: ["the input is empty"]),
        Case("empty as GPX", "", .gpx, says: ["the input is empty"]),
        Case("empty as polyline", "\n", .polyline(precision: 5), says: ["the input is empty"]),
        Case("neither JSON nor XML", "hello", says: ["cannot tell the format", "precision (5 or 6)"]),

        // Not JSON.
        Case(
            "missing comma", "{\"type\": \"LineString\",\n \"coordinates\": [[14.5, 46.0],\n [14.6 46.1]]}",
            says: ["not valid JSON", "line 3, column 8", "expected ',' or ']' after an array element, found '4'"]),
        Case(
            "truncated JSON", #"{"type": "LineString", "coordinates": [[14.5, 46.0], [14.6,"#,
            says: ["not valid JSON", "line 1, column 60", "unexpected end of input", "truncated"]),
        Case(
            "missing quote", #"{"type": "LineString, "coordinates": []}"#,
            says: ["not valid JSON", "line 1, column 24", "expected ',' or '}' after an object member, found 'c'"]),
        Case("unclosed string", #"{"type": "LineString"#, says: ["not valid JSON", "line 1, column 10", "never closed"]),
        Case(
            "trailing garbage", #"{"type": "LineString", "coordinates": [[1, 2], [3, 4]]} x"#,
            says: ["not valid JSON", "column 57", "after the end of the JSON value"]),
        Case("nested too deep", String(repeating: "[", count: 10_000), says: ["not valid JSON", "nested more than 512 levels"]),

        // JSON without a line.
        Case("a Point", #"{"type": "Point", "coordinates": [14.5, 46.0]}"#, says: ["no line geometry", "found: Point"]),
        Case("no features", #"{"type": "FeatureCollection", "features": []}"#, says: ["no line geometry"]),
        Case(
            "only points",
            #"{"type": "FeatureCollection", "features": [{"type": "Feature", "geometry": {"type": "Point", "coordinates": [1, 2]}}, {"type": "Feature", "geometry": {"type": "Point", "coordinates": [1, 2]}}]}"#,
            says: ["no line geometry", "found: 2 × Point"]),
        Case("an array", "[[14.5, 46.0], [14.6, 46.1]]", says: ["no line geometry", "an array at the top level"]),
        Case("an object without type", #"{"coordinates": [[14.5, 46.0], [14.6, 46.1]]}"#, says: ["no line geometry", "without a GeoJSON \"type\""]),
        Case("features not an array", #"{"type": "FeatureCollection", "features": {}}"#, says: ["FeatureCollection has no \"features\" array"]),
        Case(
            "not a feature", #"{"type": "FeatureCollection", "features": [{"type": "LineString", "coordinates": []}]}"#,
            says: ["feature 1: not a GeoJSON Feature"]),
        Case(
            "coordinates not an array", #"{"type": "LineString", "coordinates": "14.5,46"}"#,
            says: ["the top-level geometry", "\"coordinates\" is a string, not an array of positions"]),

        // Bad positions, located by feature and coordinate.
        Case("latitude out of range", collection(bad: "[14.5, 97.2]"), says: ["feature 3, coordinate 17: latitude 97.2 is out of range"]),
        Case("longitude out of range", collection(bad: "[-190.5, 46]"), says: ["feature 3, coordinate 17: longitude -190.5 is out of range"]),
        Case("NaN", collection(bad: "[NaN, 46]"), says: ["feature 3, coordinate 17: longitude NaN is not a finite number"]),
        Case("Infinity", collection(bad: "[14.5, Infinity]"), says: ["feature 3, coordinate 17: latitude Infinity is not a finite number"]),
        Case("-Infinity", collection(bad: "[-Infinity, 46]"), says: ["feature 3, coordinate 17: longitude -Infinity is not a finite number"]),
        Case("overflowing number", collection(bad: "[14.5, 1e999]"), says: ["feature 3, coordinate 17: latitude Infinity is not a finite number"]),
        Case("a string", collection(bad: #"["14.5", 46]"#), says: [#"feature 3, coordinate 17: longitude is a string ("14.5"), not a number"#]),
        Case("null", collection(bad: "[14.5, null]"), says: ["feature 3, coordinate 17: latitude is null, not a number"]),
        Case("one number", collection(bad: "[14.5]"), says: ["feature 3, coordinate 17: a position needs 2 numbers", "it has 1"]),
        Case("not a position", collection(bad: "14.5"), says: ["feature 3, coordinate 17: a position must be an array of numbers, not a number"]),
        Case(
            "in a MultiLineString", #"{"type": "MultiLineString", "coordinates": [[[1, 2], [3, 4]], [[1, 2], [3, 4], [5, -91]]]}"#,
            says: ["line string 2, coordinate 3: latitude -91.0 is out of range"]),

        // Too few distinct points.
        Case(
            "one repeated point", #"{"type": "LineString", "coordinates": [[14.5, 46.0], [14.5, 46.0], [14.5, 46.0]]}"#,
            says: ["the LineString has fewer than 2 distinct points"]),
        Case("no points", #"{"type": "LineString", "coordinates": []}"#, says: ["fewer than 2 distinct points"]),
        Case(
            "every stage too short", #"{"type": "MultiLineString", "coordinates": [[[1, 2]], [[3, 4], [3, 4]]]}"#,
            says: ["fewer than 2 distinct points in every one of the 2 stages"]),
        Case(
            "GPX track of one point", gpxHeader + "<trkpt lat=\"46\" lon=\"14\"/></trkseg></trk></gpx>",
            says: ["track 1 \"Loop\" has fewer than 2 distinct points"]),

        // Bad GPX.
        Case(
            "GPX without points", "<gpx version=\"1.1\">\n<wpt lat=\"46\" lon=\"14\"/><trk><trkseg/></trk></gpx>",
            says: ["no track or route points", "waypoints alone"]),
        Case(
            "GPX latitude NaN", gpxHeader + "<trkpt lat=\"46\" lon=\"14\"/>\n<trkpt lat=\"NaN\" lon=\"14\"/></trkseg></trk></gpx>",
            says: ["line 5, track 1, point 2: latitude NaN is not a finite number"]),
        Case(
            "GPX longitude inf", gpxHeader + "<trkpt lat=\"46\" lon=\"inf\"/></trkseg></trk></gpx>",
            says: ["line 4, track 1, point 1: longitude Infinity is not a finite number"]),
        Case(
            "GPX latitude out of range", gpxHeader + "\n\n<trkpt lat=\"97.2\" lon=\"14\"/></trkseg></trk></gpx>",
            says: ["line 6, track 1, point 1: latitude 97.2 is out of range"]),
        Case(
            "GPX longitude not a number", gpxHeader + "<trkpt lat=\"46\" lon=\"14,5\"/></trkseg></trk></gpx>",
            says: ["line 4, track 1, point 1: longitude \"14,5\" is not a number"]),
        Case(
            "GPX route point without lon", "<gpx>\n<rte>\n<rtept lat=\"46\"/></rte></gpx>",
            says: ["line 3, route 1, point 1: the point has no lon attribute"]),
        Case(
            "truncated GPX", gpxHeader + "<trkpt lat=\"46\" lon=\"14\"/>\n<trkpt lat=\"46.1\" lon=\"14.1\"/>\n<trkpt lat=\"46.2\" lo",
            says: ["not valid XML: line 6", "truncated"]),
        Case("mismatched tags", "<gpx>\n<trk>\n</rte>\n</gpx>", says: ["not valid XML: line 3", "end tag does not match"]),
        Case("not XML", "<<<>>>", says: ["not valid XML: line 1"]),
        Case("XML but not GPX", "<html><body><p>route</p></body></html>", says: ["not a GPX document", "<html>"]),

        // Bad polylines.
        Case(
            "polyline with a space inside", "_p~iF~ps|U_ulL nnqC_mqNvxq`@", .polyline(precision: 5),
            says: ["invalid character ' ' at position 15"]),
        Case("polyline with '!'", "_p~iF~ps|U!_ulLnnqC", .polyline(precision: 6), says: ["invalid character '!' at position 11"]),
        Case(
            "polyline cut inside a value", "_p~iF~ps|U_ulLnnqC_mqNvxq`", .polyline(precision: 5),
            says: ["truncated", "value at position 23"]),
        Case(
            "polyline without the last longitude", "_p~iF~ps|U_ulL", .polyline(precision: 5),
            says: ["truncated", "point 2 at position 11 has a latitude but no longitude"]),
        Case("polyline of an overlong value", "~~~~~~~~~~~~~~~", .polyline(precision: 5), says: ["too long", "position 1"]),
        Case(
            "polyline latitude out of range", "_c`|@_c`|@_cidP?", .polyline(precision: 5),
            says: ["polyline point 2 (position 11): latitude 100.0 is out of range"]),
        Case("polyline precision 7", "_p~iF~ps|U", .polyline(precision: 7), says: ["precision 7", "5 or 6"]),
    ]

    @Test(arguments: cases)
    func isRefusedWithOneClearLine(_ example: Case) {
        let error = #expect(throws: RouteError.self) { try Route.parse(example.input, format: example.format) }
        #expect(error?.says(example.says) == true, "\(error?.message ?? "no error")")
        #expect(error?.description == error?.message)
    }

    /// A real recording cut short reports the last line it has, wherever the cut falls.
    @Test(arguments: [0.3, 0.5, 0.9, 1])
    func truncatedRecordingNamesItsLastLine(fraction: Double) throws {
        let whole = try Fixtures.bytes(Repository.sharedRoutes.appendingPathComponent("korita-zbevnica.gpx"))
        // 1 cuts just before the closing </gpx>, leaving a file that ends cleanly after a line break.
        let end = fraction < 1 ? Int(Double(whole.count) * fraction) : try #require(whole.lastIndex(of: UInt8(ascii: "<")))
        let cut = Array(whole[..<end])
        let content = cut.reversed().drop { $0 == UInt8(ascii: "\n") || $0 == UInt8(ascii: " ") }
        let lastLine = content.count { $0 == UInt8(ascii: "\n") } + 1
        let error = #expect(throws: RouteError.self) { try Route.parse(cut, format: nil) }
        #expect(error?.says(["not valid XML: line \(lastLine),", "truncated"]) == true, "\(error?.message ?? "no error")")
    }
}
