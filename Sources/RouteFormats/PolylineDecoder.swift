import RouteModel

/// Decodes an encoded polyline (Google's algorithm) as one stage.
///
/// Each value is a zigzag-encoded difference from the previous point, cut into 5-bit chunks
/// written as the characters `?`…`~`, with 0x20 added to every chunk but a value's last.
/// Points come as latitude then longitude, the reverse of GeoJSON.
enum PolylineDecoder {
    /// Decimal places the integers are scaled by.
    static let precisions: ClosedRange<Int> = 5...6

    static func stages(from bytes: [UInt8], precision: Int) throws(RouteError) -> [StageCandidate] {
        guard precisions.contains(precision) else {
            throw RouteError("polyline precision \(precision) is not supported; it must be 5 or 6")
        }
        let scale = precision == 5 ? 1e5 : 1e6
        // Positions in messages count from the start of the input, so they point into the file as given.
        var start = 0
        var end = bytes.count
        while start < end, isWhitespace(bytes[start]) { start += 1 }
        while end > start, isWhitespace(bytes[end - 1]) { end -= 1 }

        var coordinates: [Coordinate] = []
        coordinates.reserveCapacity((end - start) / 4)
        var latitude = 0
        var longitude = 0
        var index = start
        while index < end {
            let pointStart = index
            latitude += try value(in: bytes, at: &index, end: end)
            guard index < end else {
                throw RouteError(
                    "the polyline is truncated: point \(coordinates.count + 1) at position \(pointStart + 1) "
                        + "has a latitude but no longitude")
            }
            longitude += try value(in: bytes, at: &index, end: end)
            coordinates.append(
                try CoordinateCheck.coordinate(
                    latitude: Double(latitude) / scale, longitude: Double(longitude) / scale,
                    at: "polyline point \(coordinates.count + 1) (position \(pointStart + 1))"))
        }
        return [StageCandidate(at: "the polyline", name: nil, coordinates: coordinates)]
    }

    /// Reads one zigzag-encoded value starting at `index` and moves past it.
    private static func value(in bytes: [UInt8], at index: inout Int, end: Int) throws(RouteError) -> Int {
        let valueStart = index
        var result = 0
        var shift = 0
        while true {
            guard index < end else {
                throw RouteError("the polyline is truncated: the value at position \(valueStart + 1) is cut off at the end")
            }
            let byte = bytes[index]
            guard (63...126).contains(byte) else {
                throw RouteError("the polyline has an invalid character \(describe(byte)) at position \(index + 1)")
            }
            let chunk = Int(byte) - 63
            index += 1
            result |= (chunk & 0x1F) << shift
            shift += 5
            if chunk < 0x20 { break }
            // 32 bits hold any coordinate; a longer value is corrupt and would overflow the shift.
            guard shift < 35 else {
                throw RouteError("the polyline has a value too long to be a coordinate at position \(valueStart + 1)")
            }
        }
        return result & 1 == 0 ? result >> 1 : ~(result >> 1)
    }

    private static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }

    private static func describe(_ byte: UInt8) -> String {
        guard (0x20..<0x7F).contains(byte) else { return "(byte 0x\(String(byte, radix: 16, uppercase: true)))" }
        return "'\(Character(Unicode.Scalar(byte)))'"
    }
}
