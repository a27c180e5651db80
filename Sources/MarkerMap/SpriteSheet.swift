import MarkerPixels
import MarkerRender
public import MarkerSpec
import MarkerPNG

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// One MapLibre/Mapbox sprite sheet at one pixel ratio: its pictures in one PNG, and the JSON
/// that says where each is.
public struct SpriteSheet: Sendable {
    /// GPUs commonly cap textures at 4096 px; a larger sheet would fail to load on them.
    public static let maximumSide = 4096

    struct Placement: Encodable {
        let x: Int
        let y: Int
        let width: Int
        let height: Int
        let pixelRatio: Int
    }

    public let png: [UInt8]
    public let json: [UInt8]

    /// Draws the packed `sheet`, reading each picture's PNG (one at a time, so a large batch is never
    /// all in memory) through `png`.
    public init(sheet: SpritePacker.Sheet, pixelRatio: Int, png: (SpriteID) throws(MapError) -> [UInt8]) throws(MapError) {
        var pixels = RGBAImage(width: max(1, sheet.width), height: max(1, sheet.height))
        var index: [String: Placement] = [:]
        for slot in sheet.slots {
            let id = slot.item.id
            let image: RGBAImage
            do { image = try PNGDecoder.decode(try png(id)) } catch let error as RenderError {
                throw MapError(.image, "sprite image \(id): \(error.message)")
            } catch let error as MapError {
                throw error
            } catch {
                throw MapError(.image, "sprite image \(id): \(error)")
            }
            // The packing trusted the recorded size; a picture of another size would not fit its place.
            guard image.width == slot.item.width, image.height == slot.item.height else {
                throw MapError(
                    .image,
                    "sprite image \(id) is \(image.width)×\(image.height), not the \(slot.item.width)×\(slot.item.height) recorded for it")
            }
            pixels.pixels.withUnsafeMutableBufferPointer { target in
                image.pixels.withUnsafeBufferPointer { source in
                    guard let sourceBase = source.baseAddress, let targetBase = target.baseAddress else { return }
                    for row in 0..<image.height {
                        let from = sourceBase + row * image.width * 4
                        let to = targetBase + ((slot.y + row) * pixels.width + slot.x) * 4
                        to.update(from: from, count: image.width * 4)
                    }
                }
            }
            index[id.value] = Placement(x: slot.x, y: slot.y, width: image.width, height: image.height, pixelRatio: pixelRatio)
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted]
        do {
            self.png = try PNGEncoder().encode(pixels)
            json = Array(try encoder.encode(index))
        } catch {
            throw MapError(.encoding, "cannot encode the \(pixelRatio)x sprite: \(error)")
        }
    }

    /// The pixel ratios every sheet is written at: the ones map SDKs request (`sprite` and
    /// `sprite@2x`), whatever scales the single images are drawn at.
    public static let pixelRatios = [1, 2]

    /// The name of a sheet, `sprite-night-<10 hex>`, from a hash of its PNG and JSON at every ratio,
    /// so a changed sheet never hides behind a cached old one.
    public static func name(theme: Theme, files: [(png: [UInt8], json: [UInt8])]) -> String {
        "sprite-\(theme.name)-\(hashPrefix(files: files))"
    }

    /// The hash a sheet's name carries: of its PNG and JSON at every ratio, each with its length.
    static func hashPrefix(files: [(png: [UInt8], json: [UInt8])]) -> String {
        var joined: [UInt8] = []
        for file in files {
            for part in [file.png, file.json] {
                joined += Array(String(part.count).utf8) + [0x3A] + part
            }
        }
        return String(ContentHash.sha256Hex(joined).prefix(ImageName.hashLength))
    }

    /// The file name of a sheet named `name` at `pixelRatio`: `name.png` at 1, `name@2x.png` above,
    /// as map SDKs build them from the sprite URL.
    public static func fileName(_ name: String, pixelRatio: Int, extension: String) -> String {
        name + (pixelRatio == 1 ? "" : "@\(pixelRatio)x") + "." + `extension`
    }

    /// `fileName` read back: the name and ratio of a file name with one of `extensions`, at one of
    /// `pixelRatios`. Only ratios above 1 have a suffix, so `@1x` stays part of the name (and fails
    /// whatever checks the name): one file name per file.
    public static func parseFileName(
        _ fileName: String, pixelRatios: [Int], extensions: [String]
    ) -> (name: Substring, pixelRatio: Int)? {
        guard let ending = extensions.first(where: { fileName.hasSuffix("." + $0) }) else { return nil }
        let stem = fileName.dropLast(ending.utf8.count + 1)
        for ratio in pixelRatios where ratio > 1 {
            let suffix = "@\(ratio)x"
            if stem.hasSuffix(suffix) { return (stem.dropLast(suffix.utf8.count), ratio) }
        }
        return pixelRatios.contains(1) ? (stem, 1) : nil
    }

    /// The id a style's sprite array gives sheet `index` (from 0) of a theme: `markerpaint-night`,
    /// then `markerpaint-night-2`, …; icons on it are named `markerpaint-night:<icon>` in the style.
    public static func styleID(theme: Theme, index: Int) -> String {
        "markerpaint-\(theme.name)" + (index == 0 ? "" : "-\(index + 1)")
    }
}
