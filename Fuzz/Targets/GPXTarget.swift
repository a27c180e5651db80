import RouteModel
import RouteFormats

/// libFuzzer target: any bytes read as GPX, and the markers of what reads.
enum GPXTarget: FuzzTarget {
    static let name = "gpx"

    static func fuzz(_ bytes: [UInt8]) {
        FuzzHarness.route(bytes, format: .gpx)
    }
}
