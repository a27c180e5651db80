/// Perceptual pixel-by-pixel comparison of two images: a Swift port of pixelmatch 7 (mapbox/pixelmatch).
///
/// Each pixel pair is compared by its perceived YIQ colour distance; pairs beyond the threshold
/// count as differing unless they look like anti-aliasing in either image. Translucent pixels are
/// composited onto a position-dependent pattern first, so transparency never matches white.
public enum PixelComparison {
    /// How strict a comparison is.
    public struct Options: Sendable, Hashable {
        /// How far apart two colours may look and still match: 0 (exactly equal) to 1 (anything matches).
        public var threshold: Double
        /// Counts anti-aliased pixels as differences instead of setting them aside.
        public var includeAntiAliasing: Bool
        /// The largest share of differing pixels, 0 to 1, that still passes.
        public var maximumDifferingShare: Double

        public init(threshold: Double = 0.1, includeAntiAliasing: Bool = false, maximumDifferingShare: Double = 0) {
            self.threshold = threshold
            self.includeAntiAliasing = includeAntiAliasing
            self.maximumDifferingShare = maximumDifferingShare
        }
    }

    /// What a comparison found, with a picture of it.
    public struct Result: Sendable {
        /// Pixels that differ beyond the threshold and are not anti-aliasing, plus, when the sizes differ, every pixel outside the common area.
        public let differingPixels: Int
        /// Pixels that differ beyond the threshold but look like anti-aliasing, so do not count; always 0 with `includeAntiAliasing`.
        public let antiAliasedPixels: Int
        /// Pixels compared: the image area, or the area of the canvas holding both images when their sizes differ.
        public let totalPixels: Int
        /// The size of the expected image.
        public let expectedSize: RGBAImage.Size
        /// The size of the actual image.
        public let actualSize: RGBAImage.Size
        /// The options the comparison ran with.
        public let options: Options
        /// An opaque picture of the comparison: the expected image faded to light grey, differing pixels red, anti-aliasing yellow, area only one image covers magenta.
        public let diff: RGBAImage

        /// Whether the images have different sizes, which always fails.
        public var sizeMismatch: Bool { expectedSize != actualSize }

        /// `differingPixels / totalPixels`, or 0 for empty images.
        public var differingShare: Double {
            totalPixels == 0 ? 0 : Double(differingPixels) / Double(totalPixels)
        }

        /// Whether the sizes match and the differing share is within `options.maximumDifferingShare`.
        public var passed: Bool {
            !sizeMismatch && differingShare <= options.maximumDifferingShare
        }
    }

    /// Colours of the diff picture.
    public enum DiffColor {
        /// A pixel that differs.
        public static let differing = RGBA(r: 255, g: 0, b: 0, a: 255)
        /// A pixel that differs only by anti-aliasing and is not counted.
        public static let antiAliased = RGBA(r: 255, g: 255, b: 0, a: 255)
        /// A pixel only one of two differently sized images has.
        public static let outsideCommonArea = RGBA(r: 255, g: 0, b: 255, a: 255)
    }

    /// Compares `actual` with `expected`; differently sized images fail with the mismatch drawn in the diff.
    public static func compare(expected: RGBAImage, actual: RGBAImage, options: Options = Options()) -> Result {
        precondition((0...1).contains(options.threshold), "threshold \(options.threshold) is outside 0...1")
        precondition(
            (0...1).contains(options.maximumDifferingShare),
            "maximumDifferingShare \(options.maximumDifferingShare) is outside 0...1")

        if expected.size == actual.size {
            let tally = Tally(expected: expected, actual: actual, options: options)
            return Result(
                differingPixels: tally.differingPixels, antiAliasedPixels: tally.antiAliasedPixels,
                totalPixels: expected.size.pixelCount, expectedSize: expected.size,
                actualSize: actual.size, options: options, diff: tally.diff)
        }

        // Comparing the common top-left area still shows what changed inside it, which is
        // often the reason the size changed (a moved shadow, a longer label).
        let common = RGBAImage.Size(
            width: min(expected.width, actual.width),
            height: min(expected.height, actual.height))
        let canvas = RGBAImage.Size(
            width: max(expected.width, actual.width),
            height: max(expected.height, actual.height))
        let tally = Tally(expected: expected.cropped(to: common), actual: actual.cropped(to: common), options: options)
        var diff = RGBAImage(width: canvas.width, height: canvas.height)
        for y in 0..<canvas.height {
            for x in 0..<canvas.width {
                diff[x, y] = x < common.width && y < common.height ? tally.diff[x, y] : DiffColor.outsideCommonArea
            }
        }
        return Result(
            differingPixels: tally.differingPixels + canvas.pixelCount - common.pixelCount,
            antiAliasedPixels: tally.antiAliasedPixels, totalPixels: canvas.pixelCount,
            expectedSize: expected.size, actualSize: actual.size, options: options, diff: diff)
    }
}

extension PixelComparison {
    /// One pass over two images of equal size: the counts and the diff picture.
    struct Tally {
        let differingPixels: Int
        let antiAliasedPixels: Int
        let diff: RGBAImage

        /// How much the expected image shows through in the diff; pixelmatch's default.
        static let diffFade = 0.1

        init(expected: RGBAImage, actual: RGBAImage, options: Options) {
            precondition(expected.size == actual.size)
            let width = expected.width
            let height = expected.height
            var diff = RGBAImage(width: width, height: height)
            let maximumDelta = YIQ.maximumDelta * options.threshold * options.threshold
            var differing = 0
            var antiAliased = 0

            expected.pixels.withUnsafeBytes { expectedBytes in
                actual.pixels.withUnsafeBytes { actualBytes in
                    diff.pixels.withUnsafeMutableBytes { diffBytes in
                        let first = PixelView(bytes: expectedBytes, width: width, height: height)
                        let second = PixelView(bytes: actualBytes, width: width, height: height)
                        for y in 0..<height {
                            for x in 0..<width {
                                let index = y * width + x
                                let delta =
                                    first.word(at: index) == second.word(at: index)
                                    ? 0
                                    : YIQ.delta(
                                        first.pixel(at: index), second.pixel(at: index),
                                        backdrop: YIQ.Backdrop(byteOffset: index * 4))
                                let color: RGBA
                                if delta <= maximumDelta {
                                    color = Self.faded(first.pixel(at: index))
                                } else if !options.includeAntiAliasing
                                    && (AntiAliasing.isAntiAliased(x: x, y: y, in: first, other: second)
                                        || AntiAliasing.isAntiAliased(x: x, y: y, in: second, other: first))
                                {
                                    antiAliased += 1
                                    color = DiffColor.antiAliased
                                } else {
                                    differing += 1
                                    color = DiffColor.differing
                                }
                                let offset = index * 4
                                diffBytes[offset] = color.r
                                diffBytes[offset + 1] = color.g
                                diffBytes[offset + 2] = color.b
                                diffBytes[offset + 3] = color.a
                            }
                        }
                    }
                }
            }
            differingPixels = differing
            antiAliasedPixels = antiAliased
            self.diff = diff
        }

        /// The pixel as the diff's backdrop: its brightness, mostly washed out to white, opaque.
        static func faded(_ pixel: RGBA) -> RGBA {
            let brightness = YIQ.brightness(r: Double(Int(pixel.r)), g: Double(Int(pixel.g)), b: Double(Int(pixel.b)))
            let level = UInt8((255 + (brightness - 255) * diffFade * Double(Int(pixel.a)) / 255).rounded())
            return RGBA(r: level, g: level, b: level, a: 255)
        }
    }

    /// Read access to one image's pixels for the duration of a comparison, without copies.
    struct PixelView {
        let bytes: UnsafeRawBufferPointer
        let width: Int
        let height: Int

        /// The pixel's four bytes as one word, for exact equality.
        func word(at index: Int) -> UInt32 {
            bytes.loadUnaligned(fromByteOffset: index * 4, as: UInt32.self)
        }

        func pixel(at index: Int) -> RGBA {
            // One load split by shifts is much cheaper in unoptimised builds than four checked subscripts.
            let word = UInt32(littleEndian: word(at: index))
            return RGBA(
                r: UInt8(word & 0xFF), g: UInt8(word &>> 8 & 0xFF),
                b: UInt8(word &>> 16 & 0xFF), a: UInt8(word &>> 24))
        }
    }
}
