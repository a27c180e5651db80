import Foundation
import MarkerPins
import MarkerPixels
import MarkerRender
import MarkerSpec
import TestSupport
import Testing

@Suite("Callouts with a photo")
struct CalloutPhotoTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Fixtures/photos")

    static func photo(_ name: String) throws -> [UInt8] {
        Array(try Data(contentsOf: folder.appendingPathComponent(name)))
    }

    @Test("the photo fills 216 × 120 pt across the top, cover-cropped, corners rounded 8 pt", arguments: [MarkerScale(1), .oneAndAHalf, 2, 3])
    func look(scale: MarkerScale) throws {
        let callout = try Callout(title: "Jezero", lines: ["A lake"], photo: try Self.photo("lake.jpg"))
        let (image, anchor) = try CalloutRenderer().draw(try CalloutRequest(callout: callout, theme: .day, scale: scale))
        let s = scale.factor
        func pixel(_ x: Double, _ y: Double) -> (Int, Int, Int, Int) {
            let i = (Int(y) * image.width + Int(x)) * 4
            return (Int(image.pixels[i]), Int(image.pixels[i + 1]), Int(image.pixels[i + 2]), Int(image.pixels[i + 3]))
        }
        // With a photo the bubble is as wide as it gets: 216 + 2 × 12 pt.
        let left = anchor.x - 120 * s
        let top = 10 * s
        let photo = (x: left + 12 * s, y: top + 12 * s)
        // Sky at the photo's top left (blue over green over red), water at its bottom (blue, dark).
        let sky = pixel(photo.x + 20 * s, photo.y + 6 * s)
        #expect(sky.2 > sky.1 && sky.1 > sky.0 && sky.3 == 255, "sky \(sky)")
        let water = pixel(photo.x + 108 * s, photo.y + 115 * s)
        #expect(water.2 > water.0 + 40 && water.0 + water.1 + water.2 < 450, "water \(water)")
        // The photo's corner is cut round: the bubble's white shows there.
        let corner = pixel(photo.x + 0.6, photo.y + 0.6)
        #expect(corner.0 > 240 && corner.1 > 240 && corner.2 > 240, "corner \(corner)")
        // Cover-cropped: a 3:2 photo in a 9:5 box is scaled to the box's width (216 / 1200) and
        // loses 12 pt above and below, so the sun (at 900, 180) lies at (162, 20.4) pt.
        let sun = pixel(photo.x + 162 * s, photo.y + 20.4 * s)
        #expect(sun.0 > 240 && sun.1 > 190 && sun.2 < 160, "sun \(sun)")
    }

    @Test(
        "only the rows the box shows are decoded, the same as decoded whole, and placed where the whole photo would be",
        arguments: [MarkerScale(1), .oneAndAHalf, 2, 3])
    func shownRows(scale: MarkerScale) throws {
        let photo = try CalloutPhoto(try Self.photo("lake.jpg"))
        let box = (width: 216 * scale.factor, height: 120 * scale.factor)
        let shown = try photo.cover(box.width, box.height)
        // A box of the photo's own shape, as large as the shown one: the same decoding scale, every row shown.
        let whole = try photo.cover(box.width, box.width * 800 / 1200)
        #expect(whole.surface.width == shown.surface.width && whole.scale == shown.scale)
        let rows = CalloutPhoto.shownRows(width: whole.surface.width, height: whole.surface.height, box: box)
        #expect(rows.count == shown.surface.height && rows.count < whole.surface.height, "\(rows) of \(whole.surface.height)")
        // The rows the box shows, and two each side for the filter: 1200 × 800 in a 9:5 box shows 5/6 of it.
        let shownShare = Double(rows.count - 4) / Double(whole.surface.height)
        #expect(abs(shownShare - 5.0 / 6) < 0.02, "\(shownShare)")
        let first = shown.surface.withPixels { data, stride in (0..<rows.count).map { Array(UnsafeBufferPointer(start: data + $0 * stride, count: 4 * shown.surface.width)) } }
        let reference = whole.surface.withPixels { data, stride in
            rows.map { Array(UnsafeBufferPointer(start: data + $0 * stride, count: 4 * whole.surface.width)) }
        }
        #expect(first == reference)
        // Centred as the whole photo is in the taller box, less the rows cut from the top.
        #expect(abs(shown.y - ((box.height - Double(whole.surface.height) * whole.scale) / 2 + Double(rows.lowerBound) * whole.scale)) < 1e-9)
        #expect(shown.x == 0 && whole.x == 0)
    }

    @Test(
        "a JPEG that ends early is refused when drawn, also where it ends below the rows shown",
        arguments: [("lake-truncated.jpg", 0), ("lake.jpg", 1000)])
    func truncatedWhenDrawn(name: String, cut: Int) throws {
        // The last 1,000 bytes hold the last 2% or so of the rows; the box shows 5/6 of them, centred.
        let callout = try Callout(title: "Jezero", photo: Array(try Self.photo(name).dropLast(cut)))
        for scale in [MarkerScale(1), 2, 3] {
            let refusal = #expect(throws: RenderError.self) { try CalloutRenderer().draw(try CalloutRequest(callout: callout, theme: .day, scale: scale)) }
            #expect(refusal?.message.contains("Premature end of JPEG file") == true, "\(String(describing: refusal))")
        }
    }

    @Test("PNG photos too, with their transparency")
    func png() throws {
        let callout = try Callout(title: "Stripes", photo: try Self.photo("stripes.png"))
        let (image, _) = try CalloutRenderer().draw(try CalloutRequest(callout: callout, theme: .night, scale: 2))
        #expect(image.width == (240 + 24) * 2)
    }

    @Test(
        "bad photos are refused before drawing, in bounded time and memory",
        arguments: [
            ("claims-40000.jpg", "the photo claims 40000 × 40000 pixels; a callout takes at most 10000 a side and 40 million in all"),
            ("claims-40000.png", "the photo claims 40000 × 40000 pixels; a callout takes at most 10000 a side and 40 million in all"),
            ("lake-truncated.jpg", "the photo does not decode as a JPEG: Premature end of JPEG file"),
        ])
    func refusals(name: String, message: String) throws {
        let bytes = try Self.photo(name)
        let start = ContinuousClock.now
        let refusal = #expect(throws: PhotoError.self) { try CalloutPhoto(bytes).check() }
        #expect(refusal?.message == message)
        #expect(ContinuousClock.now - start < .seconds(1))
    }

    @Test("neither JPEG nor PNG, and over 10 MB, are refused")
    func notPhotos() throws {
        #expect(throws: PhotoError("the photo is neither JPEG nor PNG")) { try CalloutPhoto(Array("GIF89a".utf8)) }
        #expect(throws: PhotoError.self) { try CalloutPhoto([0xFF, 0xD8, 0xFF, 0x00]) }
        let big = [UInt8](repeating: 0, count: CalloutPhoto.limits.bytes + 1)
        #expect(throws: PhotoError("the photo is \(big.count) bytes; a callout takes at most \(CalloutPhoto.limits.bytes) (10 MB)")) {
            try CalloutPhoto(big)
        }
    }
}
