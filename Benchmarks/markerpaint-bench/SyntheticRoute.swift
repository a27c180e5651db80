import Foundation
import RouteModel

/// Deterministic routes for the benchmarks, so runs compare, written in each route format.
enum SyntheticRoute {
    /// A winding walk of ~8 m steps across Europe.
    static func winding(points: Int) -> [Coordinate] {
        var coordinates: [Coordinate] = []
        coordinates.reserveCapacity(points)
        var latitude = 45.0
        var longitude = 5.0
        for index in 0..<points {
            let angle = Double(index % 3600) * .pi / 1800
            latitude += 0.00006 * cos(angle) + 0.00002
            longitude += 0.00009 * (1 + sin(angle))
            // Six decimals, as GPS files and polyline6 carry them, so every format holds the same points.
            coordinates.append(Coordinate(latitude: (latitude * 1e6).rounded() / 1e6, longitude: (longitude * 1e6).rounded() / 1e6))
        }
        return coordinates
    }

    /// A straight line along the equator, a point every 0.009° of longitude (about 1.0 km).
    static func equator(kilometres: Int) -> [Coordinate] {
        (0...kilometres).map { Coordinate(latitude: 0, longitude: Double($0) * 0.009) }
    }

    static func gpx(_ coordinates: [Coordinate]) -> [UInt8] {
        var text =
            #"<?xml version="1.0" encoding="UTF-8"?>"#
            + #"<gpx version="1.1" creator="markerpaint-bench" xmlns="http://www.topografix.com/GPX/1/1"><trk><name>bench</name><trkseg>"#
        text.reserveCapacity(coordinates.count * 48)
        for point in coordinates { text += #"<trkpt lat="\#(decimal(point.latitude))" lon="\#(decimal(point.longitude))"/>"# }
        text += "</trkseg></trk></gpx>"
        return Array(text.utf8)
    }

    static func geoJSON(_ coordinates: [Coordinate]) -> [UInt8] {
        var text = #"{"type":"Feature","properties":{"name":"bench"},"geometry":{"type":"LineString","coordinates":["#
        text.reserveCapacity(coordinates.count * 26)
        for (index, point) in coordinates.enumerated() {
            text += (index == 0 ? "" : ",") + "[\(decimal(point.longitude)),\(decimal(point.latitude))]"
        }
        text += "]}}"
        return Array(text.utf8)
    }

    /// Google's encoding with six decimals (OSRM, Valhalla).
    static func polyline6(_ coordinates: [Coordinate]) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(coordinates.count * 4)
        var previous = (0, 0)
        for point in coordinates {
            let current = (Int((point.latitude * 1e6).rounded()), Int((point.longitude * 1e6).rounded()))
            for delta in [current.0 - previous.0, current.1 - previous.1] {
                var value = delta < 0 ? ~(delta << 1) : delta << 1
                while value >= 0x20 {
                    bytes.append(UInt8((0x20 | (value & 0x1F)) + 63))
                    value >>= 5
                }
                bytes.append(UInt8(value + 63))
            }
            previous = current
        }
        return bytes
    }

    private static func decimal(_ value: Double) -> String { String(format: "%.6f", value) }
}
