import MarkerPixels
import MarkerSpec
import Testing

@testable import MarkerRender

/// What placement keeps apart: each picture's opaque pixels, measured without drawing.
@Suite("Marker footprints")
struct FootprintTests {
    static let markers: [@Sendable () throws -> Marker] = [
        { try Marker(kind: .start, distance: 0) }, { try Marker(kind: .distance, distance: 7.5) },
        { try Marker(kind: .distance, distance: 1234) }, { try Marker(kind: .end, distance: 123) },
        { try Marker(kind: .end, distance: 9999, unit: .mi) }, { try Marker(kind: .countdown, distance: 45) },
        { try Marker(kind: .distance, distance: 7.5, unit: .nmi, mark: .comma) },
        { try Marker(combining: [Marker.Part(kind: .distance, distance: 3), Marker.Part(kind: .distance, distance: 17)]) },
        {
            try Marker(combining: [
                Marker.Part(kind: .start, distance: 0), Marker.Part(kind: .distance, distance: 5), Marker.Part(kind: .countdown, distance: 2),
                Marker.Part(kind: .end, distance: 10),
            ])
        },
    ]

    /// Whether a pixel is the marker itself, not the shadow around it (at most 30% black).
    static func opaque(_ pixel: RGBA) -> Bool { pixel.a >= 128 }

    @Test("the footprint is the union of every scale's layout, measured without setting a glyph", arguments: markers.indices)
    func matchesTheLayout(index: Int) throws {
        let renderer = try MarkerRenderer()
        let marker = try Self.markers[index]()
        var union: MarkerFootprint? = nil
        for scale in MarkerRequest.scales {
            let footprint = try renderer.layout(for: MarkerRequest(marker: marker, theme: .night, scale: scale)).footprint
            union = union.map { $0.union(footprint) } ?? footprint
        }
        #expect(try renderer.footprint(of: marker) == union)
    }

    @Test("every opaque pixel lies in the footprint, at every scale, and the footprint hugs them", arguments: markers.indices)
    func holdsTheOpaquePixels(index: Int) throws {
        let renderer = try MarkerRenderer()
        let marker = try Self.markers[index]()
        let footprint = try renderer.footprint(of: marker)
        for scale in MarkerRequest.scales {
            for theme in Theme.builtIn {
                let (image, anchor) = try renderer.draw(MarkerRequest(marker: marker, theme: theme, scale: scale))
                let s = scale.factor
                var seen: MarkerFootprint.Box? = nil
                for y in 0..<image.height {
                    for x in 0..<image.width where Self.opaque(image[x, y]) {
                        let box = MarkerFootprint.Box(
                            left: (Double(x) - anchor.x) / s, top: (Double(y) - anchor.y) / s, right: (Double(x + 1) - anchor.x) / s,
                            bottom: (Double(y + 1) - anchor.y) / s)
                        let inPill =
                            box.left >= footprint.pill.left && box.right <= footprint.pill.right && box.top >= footprint.pill.top
                            && box.bottom <= footprint.pill.bottom
                        let inDot =
                            box.left >= footprint.dot.left && box.right <= footprint.dot.right && box.top >= footprint.dot.top
                            && box.bottom <= footprint.dot.bottom
                        #expect(inPill || inDot, "\(marker.label) \(theme.name) @\(scale)x: pixel \(x), \(y) is outside the footprint")
                        seen = seen.map { $0.union(box) } ?? box
                    }
                }
                // The union over scales is at most a pixel of another scale wider: under a point on each side.
                let opaque = try #require(seen)
                let bounds = footprint.bounds
                for slack in [opaque.left - bounds.left, bounds.right - opaque.right, opaque.top - bounds.top, bounds.bottom - opaque.bottom] {
                    #expect(slack < 1, "\(marker.label) \(theme.name) @\(scale)x: \(slack) points of footprint beyond the opaque pixels")
                }
            }
        }
    }
}
