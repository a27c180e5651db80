import RouteModel
import RouteFormats

/// libFuzzer target: any bytes read as an encoded polyline, precision 5 or 6 by the first byte's
/// lowest bit (the rest is the polyline), and the markers of what reads.
enum PolylineTarget: FuzzTarget {
    static let name = "polyline"

    static func fuzz(_ bytes: [UInt8]) {
        guard let first = bytes.first else { return }
        FuzzHarness.route(Array(bytes.dropFirst()), format: .polyline(precision: first & 1 == 0 ? 5 : 6))
    }
}
