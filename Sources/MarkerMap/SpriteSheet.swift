import MarkerPixels
import MarkerRender
public import MarkerSpec

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A MapLibre/Mapbox sprite: many images packed into one PNG, and the JSON that says where each is.
public struct SpriteSheet {
    /// GPUs commonly cap textures at 4096 px; a larger sprite would fail to load on them.
    public static let maximumSide = 4096

    /// One image to pack: its id, its recorded size, and how to read its PNG when its turn comes
    /// (one at a time, so a large batch is never all in memory).
    public struct Entry {
        public let id: SpriteID
        public let width: Int
        public let height: Int
        public let png: () throws(MapError) -> [UInt8]

        public init(id: SpriteID, width: Int, height: Int, png: @escaping () throws(MapError) -> [UInt8]) {
            self.id = id
            self.width = width
            self.height = height
            self.png = png
        }
    }

    struct Placement: Encodable {
        let x: Int
        let y: Int
        let width: Int
        let height: Int
        let pixelRatio: Int
    }

    public let png: [UInt8]
    public let json: [UInt8]

    /// Packs `entries` (read from their files, one at a time) in shelves, tallest first.
    public init(entries: [Entry], pixelRatio: Int) throws(MapError) {
        let sorted = entries.sorted { ($0.height, $1.id) > ($1.height, $0.id) }
        let gap = 1
        let area = entries.reduce(0) { $0 + ($1.width + gap) * ($1.height + gap) }
        let widest = entries.map(\.width).max() ?? 1
        let sheetWidth = max(widest, Int(Double(area).squareRoot() * 1.1))
        var placements: [(Entry, Int, Int)] = []
        var x = 0
        var y = 0
        var shelfHeight = 0
        var usedWidth = 0
        for entry in sorted {
            if x > 0 && x + entry.width > sheetWidth {
                y += shelfHeight + gap
                x = 0
                shelfHeight = 0
            }
            placements.append((entry, x, y))
            usedWidth = max(usedWidth, x + entry.width)
            x += entry.width + gap
            shelfHeight = max(shelfHeight, entry.height)
        }
        let sheetHeight = y + shelfHeight
        guard usedWidth <= Self.maximumSide, sheetHeight <= Self.maximumSide else {
            throw MapError(
                .spriteTooLarge,
                "\(entries.count) images need a \(usedWidth)×\(sheetHeight) sprite, over the \(Self.maximumSide) px GPU limit; use the PNGs one by one (manifest.json) without sprites"
            )
        }
        var sheet = RGBAImage(width: max(1, usedWidth), height: max(1, sheetHeight))
        var index: [String: Placement] = [:]
        for (entry, left, top) in placements {
            let image: RGBAImage
            do { image = try PNGDecoder.decode(try entry.png()) } catch let error as RenderError {
                throw MapError(.image, "sprite image \(entry.id): \(error.message)")
            } catch let error as MapError {
                throw error
            } catch {
                throw MapError(.image, "sprite image \(entry.id): \(error)")
            }
            // The packing trusted the recorded size; a picture of another size would not fit its place.
            guard image.width == entry.width, image.height == entry.height else {
                throw MapError(
                    .image, "sprite image \(entry.id) is \(image.width)×\(image.height), not the \(entry.width)×\(entry.height) recorded for it")
            }
            sheet.pixels.withUnsafeMutableBufferPointer { target in
                image.pixels.withUnsafeBufferPointer { source in
                    guard let sourceBase = source.baseAddress, let targetBase = target.baseAddress else { return }
                    for row in 0..<image.height {
                        let from = sourceBase + row * image.width * 4
                        let to = targetBase + ((top + row) * sheet.width + left) * 4
                        to.update(from: from, count: image.width * 4)
                    }
                }
            }
            index[entry.id.value] = Placement(x: left, y: top, width: image.width, height: image.height, pixelRatio: pixelRatio)
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted]
        do {
            png = try PNGEncoder().encode(sheet)
            json = Array(try encoder.encode(index))
        } catch {
            throw MapError(.encoding, "cannot encode the \(pixelRatio)x sprite: \(error)")
        }
    }

    /// `sprite-night` at ratio 1, `sprite-night@2x` above, as map SDKs look them up.
    public static func baseName(theme: Theme, pixelRatio: Int) -> String {
        "sprite-\(theme.name)" + (pixelRatio == 1 ? "" : "@\(pixelRatio)x")
    }
}
