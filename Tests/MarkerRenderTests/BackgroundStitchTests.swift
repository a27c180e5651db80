import MarkerSpec
import Testing

@testable import MarkerRender

/// Backgrounds put together from a narrower one must be, byte for byte, the ones painted.
@Suite("Background stitching")
struct BackgroundStitchTests {
    @Test(
        "every background stitched is, premultiplied pixel for pixel, the one painted, at every width stitched, in both themes",
        arguments: MarkerScale.all)
    func stitchedIsPainted(scale: MarkerScale) throws {
        let stitch = BackgroundStitch(scale: scale)
        var backgrounds = MarkerBackground(sharing: SharedDrawing())
        var painter = MarkerBackground(sharing: SharedDrawing())
        #expect(!stitch.stitches(pillWidth: stitch.referencePillWidth))
        #expect(!stitch.stitches(pillWidth: stitch.widestPillWidth + 2))
        var checked = 0
        for pillWidth in Swift.stride(from: stitch.referencePillWidth + 2, through: stitch.widestPillWidth, by: 2) {
            #expect(stitch.stitches(pillWidth: pillWidth))
            let layout = MarkerLayout(backgroundWithPillWidth: pillWidth, scale: scale)
            // Night at every tenth width: the stitch does not look at colours, the painting does.
            for palette in (pillWidth - stitch.referencePillWidth) % 20 == 0 ? [Theme.day.palette, Theme.night.palette] : [Theme.day.palette] {
                let stitched = LabelShaperTests.premultipliedPixels(of: try backgrounds.surface(for: layout, palette: palette))
                let painted = LabelShaperTests.premultipliedPixels(of: try painter.painted(layout, palette: palette))
                // A Bool, so that a failure names the width instead of printing every byte.
                let identical = stitched == painted
                #expect(identical, "pill \(pillWidth) px @\(scale)x")
                checked += 1
            }
        }
        #expect(checked >= Int(Double(BackgroundStitch.span / 2) * 1.1))
    }

    @Test("markers from three digits up have their backgrounds stitched at every scale", arguments: MarkerScale.all)
    func markersAreStitched(scale: MarkerScale) throws {
        let renderer = try MarkerRenderer()
        let stitch = BackgroundStitch(scale: scale)
        for distance in [123.0, 1999, 100_000] {
            let request = try MarkerRequest(marker: Marker(kind: .distance, distance: distance), theme: .day, scale: scale)
            let width = Int(try renderer.layout(for: request).pill.width)
            #expect(stitch.stitches(pillWidth: width), "\(distance) km @\(scale)x: pill \(width) px")
        }
    }
}
