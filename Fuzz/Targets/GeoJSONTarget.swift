import RouteModel
import RouteFormats

/// libFuzzer target: any bytes read as GeoJSON, and the markers of what reads.
enum GeoJSONTarget: FuzzTarget {
    static let name = "geojson"

    static func fuzz(_ bytes: [UInt8]) {
        FuzzHarness.route(bytes, format: .geoJSON)
    }
}
