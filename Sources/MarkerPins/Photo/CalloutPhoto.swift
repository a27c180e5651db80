import CJPEG
import MarkerPixels
import MarkerPNG
package import MarkerRender

/// Why a callout's photo cannot be drawn, in one line.
public struct PhotoError: Error, Sendable, Equatable, CustomStringConvertible {
    public let message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}

/// A callout's photo: JPEG or PNG, its size read from its header and held to `limits` before any
/// pixel is decoded, so a file that claims 40,000 × 40,000 pixels costs nothing.
public struct CalloutPhoto: Sendable {
    public enum Format: String, Sendable { case jpeg = "JPEG", png = "PNG" }

    /// The most a photo may be: 10 MB of file, 10,000 pixels a side, 40 million pixels.
    public static let limits = (bytes: 10 << 20, side: 10_000, pixels: 40_000_000)

    public let bytes: [UInt8]
    public let format: Format
    public let width: Int
    public let height: Int

    /// - Throws: `PhotoError` for a file that is not a JPEG or PNG, or is over `limits`.
    public init(_ bytes: [UInt8]) throws(PhotoError) {
        guard bytes.count <= Self.limits.bytes else {
            throw PhotoError("the photo is \(bytes.count) bytes; a callout takes at most \(Self.limits.bytes) (10 MB)")
        }
        if bytes.starts(with: [0xFF, 0xD8, 0xFF]) {
            format = .jpeg
            var (width, height) = (Int32(0), Int32(0))
            var message = [CChar](repeating: 0, count: 200)
            guard markerpaint_jpeg_scaled_size(bytes, bytes.count, 1, &width, &height, &message, message.count) == 0 else {
                throw PhotoError("the photo is not a JPEG markerpaint can read: \(Self.text(message))")
            }
            (self.width, self.height) = (Int(width), Int(height))
        } else if bytes.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) {
            format = .png
            // The header chunk comes first: its width and height are bytes 16-23.
            guard bytes.count >= 24, Array(bytes[12..<16]) == Array("IHDR".utf8) else {
                throw PhotoError("the photo is not a PNG markerpaint can read: it has no header")
            }
            let number = { (at: Int) in bytes[at..<at + 4].reduce(0) { $0 << 8 | Int($1) } }
            (width, height) = (number(16), number(20))
        } else {
            throw PhotoError("the photo is neither JPEG nor PNG")
        }
        self.bytes = bytes
        guard width > 0, height > 0 else { throw PhotoError("the photo's header says it is \(width) × \(height) pixels") }
        guard width <= Self.limits.side, height <= Self.limits.side, width * height <= Self.limits.pixels else {
            throw PhotoError(
                "the photo claims \(width) × \(height) pixels; a callout takes at most \(Self.limits.side) a side and \(Self.limits.pixels / 1_000_000) million in all")
        }
    }

    /// Decodes the photo at an eighth of its size, to refuse a file that does not decode whole
    /// (one that ends early included) before anything is drawn or written.
    public func check() throws(PhotoError) {
        _ = try cover(0, 0)
    }

    /// The photo decoded to cover a box, and where it lies in it.
    package struct Cover {
        /// The pixels decoded: every column, and the rows the box shows (a JPEG's), with a margin
        /// for the filter that scales them.
        package var surface: CairoSurface
        /// The scale from decoded pixels to the box's, and the offset of the surface's top left
        /// corner from the box's: the photo centred, covering the box.
        package var scale: Double
        package var x: Double
        package var y: Double
    }

    /// The photo decoded to cover a `width` × `height` box, centred (a JPEG decoded at 1/2, 1/4 or
    /// 1/8 of its size where that still covers it, and only the rows the box shows decoded).
    /// - Throws: `PhotoError` for a file that does not decode whole, a truncated one included.
    package func cover(
        _ width: Double, _ height: Double,
        reusing reuse: (Int, Int) throws(RenderError) -> CairoSurface = { (width, height) throws(RenderError) in try CairoSurface(.colour, width: width, height: height) }
    ) throws(PhotoError) -> Cover {
        func placed(_ surface: CairoSurface, fullHeight: Int, firstRow: Int) -> Cover {
            let scale = max(width / Double(surface.width), height / Double(fullHeight))
            return Cover(
                surface: surface, scale: scale, x: (width - Double(surface.width) * scale) / 2,
                y: (height - Double(fullHeight) * scale) / 2 + Double(firstRow) * scale)
        }
        switch format {
        case .png:
            let image: RGBAImage
            do { image = try PNGDecoder.decode(bytes) } catch { throw PhotoError("the photo does not decode as a PNG: \(error.message)") }
            do { return placed(try CairoSurface(image: image), fullHeight: image.height, firstRow: 0) } catch { throw PhotoError(error.message) }
        case .jpeg:
            var denominator: Int32 = 1
            for candidate: Int32 in [8, 4, 2] where Double(self.width) / Double(candidate) >= width && Double(self.height) / Double(candidate) >= height {
                denominator = candidate
                break
            }
            var (decodedWidth, decodedHeight) = (Int32(0), Int32(0))
            var message = [CChar](repeating: 0, count: 200)
            guard markerpaint_jpeg_scaled_size(bytes, bytes.count, denominator, &decodedWidth, &decodedHeight, &message, message.count) == 0 else {
                throw PhotoError("the photo does not decode as a JPEG: \(Self.text(message))")
            }
            // The rows the box shows, and two more each side for the scaling filter to read.
            let rows = Self.shownRows(width: Int(decodedWidth), height: Int(decodedHeight), box: (width, height))
            // Straight into the surface: libjpeg writes Cairo's own pixel layout.
            let surface: CairoSurface
            do { surface = try reuse(Int(decodedWidth), rows.count) } catch { throw PhotoError(error.message) }
            let decoded = surface.withPixels { data, stride in
                markerpaint_jpeg_decode_rows_into(
                    bytes, bytes.count, denominator, Int32(rows.lowerBound), data, stride, decodedWidth, Int32(rows.count), &message, message.count)
            }
            guard decoded == 0 else { throw PhotoError("the photo does not decode as a JPEG: \(Self.text(message))") }
            return placed(surface, fullHeight: Int(decodedHeight), firstRow: rows.lowerBound)
        }
    }

    /// The rows of a `width` × `height` image that cover `box` centred shows, with two more each
    /// side; every row for an empty box.
    package static func shownRows(width: Int, height: Int, box: (width: Double, height: Double)) -> Range<Int> {
        guard box.width > 0, box.height > 0, width > 0, height > 0 else { return 0..<height }
        let scale = max(box.width / Double(width), box.height / Double(height))
        let shown = box.height / scale
        let first = max(Int(((Double(height) - shown) / 2).rounded(.down)) - 2, 0)
        let last = min(Int(((Double(height) + shown) / 2).rounded(.up)) + 2, height)
        return first..<max(last, first + 1)
    }

    private static func text(_ message: [CChar]) -> String {
        String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
