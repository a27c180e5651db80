import Foundation
import RouteModel
import Testing

@testable import RouteFormats

@Suite("Waypoints: GPX <wpt> and GeoJSON Points, read beside the way")
struct WaypointTests {
    static let gpx = """
        <?xml version="1.0" encoding="UTF-8"?>
        <gpx version="1.1" creator="test" xmlns="http://www.topografix.com/GPX/1/1">
          <wpt lat="46.4333" lon="13.7433"><name>Koča na Gozdu</name><desc>Water by the door</desc><sym>Drinking Water</sym></wpt>
          <wpt lat="46.4500" lon="13.7600"><name> Vršič </name><sym>Summit</sym><extensions><name>not this</name></extensions></wpt>
          <wpt lat="46.46" lon="13.77"/>
          <trk><name>Day 1</name><trkseg><trkpt lat="46.43" lon="13.74"/><trkpt lat="46.44" lon="13.75"/></trkseg></trk>
        </gpx>
        """

    @Test("a GPX's waypoints with name, description and symbol, read alike by the plain scanner and expat")
    func gpxWaypoints() throws {
        let bytes = Array(Self.gpx.utf8)
        let plain = try GPXReader.read(bytes, method: .plainFirst)
        let expat = try GPXReader.read(bytes, method: .expat)
        #expect(plain.waypoints == expat.waypoints)
        #expect(plain.waypoints.count == 3)
        #expect(plain.waypoints[0] == Waypoint(coordinate: Coordinate(latitude: 46.4333, longitude: 13.7433), name: "Koča na Gozdu", description: "Water by the door", symbol: "Drinking Water"))
        #expect(plain.waypoints[1].name == "Vršič" && plain.waypoints[1].symbol == "Summit" && plain.waypoints[1].description == nil)
        #expect(plain.waypoints[2].name == nil)
        let route = try Route.parse(bytes, format: .gpx)
        #expect(route.waypoints == plain.waypoints && route.stages.count == 1)
    }

    @Test("a waypoint's coordinate is checked as a track point's is")
    func badWaypoint() {
        let bytes = Array(Self.gpx.replacingOccurrences(of: "lat=\"46.46\"", with: "lat=\"nan\"").utf8)
        #expect(throws: RouteError.self) { try Route.parse(bytes, format: .gpx) }
    }

    @Test("GeoJSON Point features are waypoints with simplestyle's properties; a bare Point too")
    func geoJSONPoints() throws {
        let text = """
            {"type": "FeatureCollection", "features": [
              {"type": "Feature", "properties": {"name": "Start"}, "geometry": {"type": "LineString", "coordinates": [[13.74, 46.43], [13.75, 46.44]]}},
              {"type": "Feature", "properties": {"name": "Water", "description": "Tap", "marker-symbol": "drinking-water", "marker-color": "#1E88E5"},
               "geometry": {"type": "Point", "coordinates": [13.7433, 46.4333, 1226]}},
              {"type": "Feature", "properties": null, "geometry": {"type": "Point", "coordinates": [13.76, 46.45]}},
              {"type": "Feature", "properties": {}, "geometry": {"type": "GeometryCollection", "geometries": [{"type": "Point", "coordinates": [13.77, 46.46]}]}}
            ]}
            """
        let route = try Route.parse(Array(text.utf8), format: .geoJSON)
        #expect(route.stages.count == 1)
        #expect(route.waypoints.count == 3)
        #expect(
            route.waypoints[0]
                == Waypoint(coordinate: Coordinate(latitude: 46.4333, longitude: 13.7433), name: "Water", description: "Tap", symbol: "drinking-water", colour: "#1E88E5"))
        #expect(route.waypoints[1].name == nil && route.waypoints[2].coordinate == Coordinate(latitude: 46.46, longitude: 13.77))
        #expect(throws: RouteError.self) {
            try Route.parse(Array(text.replacingOccurrences(of: "[13.76, 46.45]", with: "[13.76, 95]").utf8), format: .geoJSON)
        }
    }

    @Test("past 1,000 waypoints the first 1,000 are kept, with a warning; exactly 1,000 without", arguments: [999, 1_000, 1_001, 5_000])
    func waypointLimit(count: Int) throws {
        let points = (0..<count).map { #"<wpt lat="46.\#($0 % 1000)" lon="13.5"><name>W\#($0)</name></wpt>"# }.joined()
        let gpx = #"<gpx version="1.1">"# + points + #"<trk><trkseg><trkpt lat="46.43" lon="13.74"/><trkpt lat="46.44" lon="13.75"/></trkseg></trk></gpx>"#
        for format in [RouteFormat.gpx] {
            let route = try Route.parse(Array(gpx.utf8), format: format)
            #expect(route.waypoints.count == min(count, Waypoint.maximumCount))
            #expect(route.waypoints.last?.name == "W\(min(count, Waypoint.maximumCount) - 1)")
            let warned = route.warnings.contains { $0.contains("more than 1000 waypoints") }
            #expect(warned == (count > Waypoint.maximumCount), "\(route.warnings)")
        }
        let features = (0..<count).map { #"{"type":"Feature","properties":{"name":"W\#($0)"},"geometry":{"type":"Point","coordinates":[13.5,46.1]}}"# }
        let line = #"{"type":"Feature","properties":{},"geometry":{"type":"LineString","coordinates":[[13.74,46.43],[13.75,46.44]]}}"#
        let geoJSON = #"{"type":"FeatureCollection","features":["# + ([line] + features).joined(separator: ",") + "]}"
        let route = try Route.parse(Array(geoJSON.utf8), format: .geoJSON)
        #expect(route.waypoints.count == min(count, Waypoint.maximumCount))
        #expect(route.warnings.contains { $0.contains("more than 1000 waypoints") } == (count > Waypoint.maximumCount))
    }
}
