import TestSupport
import Testing

@testable import RouteModel
@testable import RouteFormats

/// The parser reads arrays of number arrays (a line's positions) flat, and falls back to reading
/// value by value for anything else: both ways must give the same stages or the same message.
@Suite("Positions read flat")
struct FlatPositionsTests {
    /// The stages read, or the error, as text.
    static func outcome(_ text: String, flat: Bool) -> String {
        do {
            let stages = try GeoJSONReader.stages(from: Array(text.utf8), flatteningNumberArrays: flat)
            return stages.map { candidate in
                "\(candidate.label): " + candidate.stage.coordinates.map { "\($0.longitude) \($0.latitude)" }.joined(separator: ", ")
            }.joined(separator: "; ")
        } catch {
            return "error: \(error.message)"
        }
    }

    static let documents = [
        #"{"type": "LineString", "coordinates": [[14.5, 46.05], [14.36, 46.24, 385], [ -0.5 , -1e-3 ]]}"#,
        #"{"type":"LineString","coordinates":[[14.5,46.05],[14.36,46.24]]}"#,
        #"{"type": "LineString", "coordinates": [[14.5, 46.05], [NaN, 46]]}"#,
        #"{"type": "LineString", "coordinates": [[14.5, 46.05], [-Infinity, 46]]}"#,
        #"{"type": "LineString", "coordinates": [[14.5, 46.05], [14.5, 1e999]]}"#,
        #"{"type": "LineString", "coordinates": [[14.5, 46.05], [14.5]]}"#,
        #"{"type": "LineString", "coordinates": [[14.5, 46.05], []]}"#,
        #"{"type": "LineString", "coordinates": [[14.5, 46.05], 14.5]}"#,
        #"{"type": "LineString", "coordinates": [[14.5, 46.05], ["14.5", 46]]}"#,
        #"{"type": "LineString", "coordinates": [[14.5, 46.05], [1.e5, 46]]}"#,
        #"{"type": "LineString", "coordinates": [[14.5, 46.05], [14.5, 46.1]"#,
        #"{"type": "LineString", "coordinates": [[14.5, 46.05] [14.5, 46.1]]}"#,
        #"{"type": "LineString", "coordinates": [[14.5, 46.05], [014.5, 46.1]]}"#,
        #"{"type": "LineString", "coordinates": [[14.5, 46.05], [200, 46.1]]}"#,
        #"{"type": "LineString", "coordinates": []}"#,
        #"{"type": "MultiLineString", "coordinates": [[[14.5, 46.05], [14.36, 46.24]], [[14.36, 46.24], [14.11, 46.37]]]}"#,
        #"{"type": "MultiLineString", "coordinates": [[14.5, 46.05], [14.36, 46.24]]}"#,
        #"{"type": "Polygon", "coordinates": [[[0, 0], [1, 0], [1, 1], [0, 0]]]}"#,
        #"{"type": "FeatureCollection", "bbox": [0, 0, 1, 1], "features": [{"type": "Feature", "properties": {"name": "a"}, "geometry": {"type": "LineString", "coordinates": [[1, 2], [3, 4]]}}, {"type": "Feature", "properties": {}, "geometry": {"type": "GeometryCollection", "geometries": [{"type": "LineString", "coordinates": [[5, 6], [7, 8]]}, {"type": "Point", "coordinates": [1, 2]}]}}]}"#,
        String(repeating: "[", count: 511) + "[1, 2]" + String(repeating: "]", count: 511),
        String(repeating: "[", count: 510) + "[[1, 2]]" + String(repeating: "]", count: 510),
        String(repeating: "[", count: 511) + "[[1, 2]]" + String(repeating: "]", count: 511),
    ]

    @Test("each document reads to the same stages, or fails with the same message, both ways", arguments: documents)
    func sameOutcome(_ document: String) {
        #expect(Self.outcome(document, flat: true) == Self.outcome(document, flat: false))
    }

    @Test("thousands of damaged documents read the same both ways")
    func damagedDocuments() {
        var generator = SeededGenerator(seed: 8)
        let alphabet = Array("[]{},:-+.0123456789eENI \"a".utf8)
        var differences: [String] = []
        // Five thousand: enough to reach every branch many times, without holding a test thread for seconds.
        for _ in 0..<5_000 {
            var bytes = Array(Self.documents.randomElement(using: &generator)!.utf8)
            for _ in 0..<Int.random(in: 1...3, using: &generator) {
                let at = Int.random(in: 0..<bytes.count, using: &generator)
                switch Int.random(in: 0..<3, using: &generator) {
                case 0: bytes.remove(at: at)
                case 1: bytes.insert(alphabet.randomElement(using: &generator)!, at: at)
                default: bytes[at] = alphabet.randomElement(using: &generator)!
                }
            }
            let text = String(decoding: bytes, as: UTF8.self)
            let flat = Self.outcome(text, flat: true)
            let byValue = Self.outcome(text, flat: false)
            if flat != byValue { differences.append("\(text)\n  flat: \(flat)\n  by value: \(byValue)") }
        }
        let count = differences.count
        #expect(count == 0, "first of those that differ: \(differences.first ?? "")")
    }
}
