import MarkerPins
import MarkerPixels
import MarkerRender
import MarkerSpec

/// libFuzzer target: a callout's photo and text. Bytes starting with a JPEG's or PNG's signature
/// are a photo, checked and decoded as `--photo` is, then as a callout's box shows it; any other
/// bytes are a title and lines (split at newlines, read as UTF-8), laid out and drawn at @1x. No
/// input may trap, take more than the limits allow, or make a bubble wider than 240 pt.
enum CalloutTarget: FuzzTarget {
    static let name = "callout"

    nonisolated(unsafe) private static let renderer = try? CalloutRenderer()

    static func fuzz(_ bytes: [UInt8]) {
        if bytes.starts(with: [0xFF, 0xD8, 0xFF]) || bytes.starts(with: [0x89, 0x50, 0x4E, 0x47]) {
            guard let photo = try? CalloutPhoto(bytes) else { return }
            FuzzHarness.require(photo.width * photo.height <= CalloutPhoto.limits.pixels, "\(photo.width) × \(photo.height) let through")
            guard (try? photo.check()) != nil else { return }
            // And as a callout decodes it: only the rows its box shows, a JPEG's from 1/8 to whole.
            for box in [(216.0, 120.0), (432.0, 240.0)] {
                guard let cover = try? photo.cover(box.0, box.1) else { continue }
                FuzzHarness.require(
                    Double(cover.surface.width) * cover.scale >= box.0 - 1e-6 && cover.x <= 1e-6 && cover.y <= 1e-6
                        && cover.y + Double(cover.surface.height) * cover.scale >= box.1 - 1e-6,
                    "\(photo.width) × \(photo.height) leaves the \(box) box uncovered")
            }
            return
        }
        let parts = bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).map { String(decoding: $0, as: UTF8.self) }
        guard let title = parts.first, let callout = try? Callout(title: title, lines: Array(parts.dropFirst().prefix(6))),
            let request = try? CalloutRequest(callout: callout, theme: .day, scale: 1), let renderer
        else { return }
        guard let (image, _) = try? renderer.draw(request) else { return }
        // The canvas is the bubble and its shadow's margins: 12 pt each side.
        FuzzHarness.require(image.width <= 240 + 24, "a callout \(image.width) px wide at @1x")
    }
}
