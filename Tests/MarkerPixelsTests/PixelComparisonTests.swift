import MarkerPixels
import Testing

@Suite("Pixel comparison")
struct PixelComparisonTests {
    /// The marker every test compares against, as the golden PNG would hold it.
    static let golden = SyntheticMarker().render()

    /// The share of differing pixels golden tests are expected to tolerate: 6 of 6000 here.
    static let goldenTolerance = PixelComparison.Options(maximumDifferingShare: 0.001)

    @Test func identicalRendersMatch() {
        let result = PixelComparison.compare(expected: Self.golden, actual: SyntheticMarker().render())
        #expect(result.differingPixels == 0)
        #expect(result.antiAliasedPixels == 0)
        #expect(result.totalPixels == 6000)
        #expect(result.differingShare == 0)
        #expect(!result.sizeMismatch)
        #expect(result.passed)
    }

    /// A change to the marker's look that golden tests exist to catch.
    enum Regression: String, CaseIterable, Sendable, CustomTestStringConvertible {
        case shiftedRightOnePixel
        case shiftedDownOnePixel
        case recoloured
        case shadowMissing
        /// The outer half of the shadow's alpha ramp cut off, as a too-tight clip does.
        case shadowRampClipped
        case paintedOnOpaqueWhite

        var marker: SyntheticMarker {
            var marker = SyntheticMarker()
            switch self {
            case .shiftedRightOnePixel: marker.centerX += 1
            case .shiftedDownOnePixel: marker.centerY += 1
            case .recoloured: marker.fill = RGBA(r: 230, g: 120, b: 20, a: 255)
            case .shadowMissing: marker.shadowOpacity = 0
            case .shadowRampClipped: marker.shadowClipRow = 42
            case .paintedOnOpaqueWhite: marker.background = RGBA(r: 255, g: 255, b: 255, a: 255)
            }
            return marker
        }

        var testDescription: String { rawValue }
    }

    @Test(arguments: Regression.allCases)
    func regressionFailsEitherWayRound(_ regression: Regression) {
        let changed = regression.marker.render()
        for (expected, actual) in [(Self.golden, changed), (changed, Self.golden)] {
            let result = PixelComparison.compare(expected: expected, actual: actual, options: Self.goldenTolerance)
            #expect(result.differingPixels > 6)
            #expect(!result.passed)
        }
    }

    @Test(arguments: [true, false])
    func transparentNeverMatchesOpaqueWhite(transparentIsExpected: Bool) {
        let transparent = RGBAImage(width: 100, height: 60)
        let white = RGBAImage(width: 100, height: 60, pixels: [UInt8](repeating: 255, count: 100 * 60 * 4))
        let result =
            transparentIsExpected
            ? PixelComparison.compare(expected: transparent, actual: white)
            : PixelComparison.compare(expected: white, actual: transparent)
        // The backdrop pattern varies with position, so every one of the 6000 positions must differ.
        #expect(result.differingPixels == result.totalPixels)
        #expect(result.antiAliasedPixels == 0)
        #expect(!result.passed)
    }

    @Test func fullyTransparentPixelsMatchWhateverTheirColourChannels() {
        let zeroes = RGBAImage(width: 40, height: 30)
        var leftovers = RGBAImage(width: 40, height: 30)
        for y in 0..<30 {
            for x in 0..<40 { leftovers[x, y] = RGBA(r: UInt8(x * 6), g: 255, b: UInt8(y * 8), a: 0) }
        }
        let result = PixelComparison.compare(
            expected: zeroes, actual: leftovers,
            options: .init(threshold: 0, includeAntiAliasing: true))
        #expect(result.differingPixels == 0)
        #expect(result.passed)
    }

    @Test func subpixelShiftDiffersOnlyByAntiAliasing() {
        var nudged = SyntheticMarker()
        nudged.centerX += 0.2
        let actual = nudged.render()

        let lenient = PixelComparison.compare(expected: Self.golden, actual: actual)
        #expect(lenient.differingPixels == 0)
        #expect(lenient.antiAliasedPixels > 20)
        #expect(lenient.passed)

        let strict = PixelComparison.compare(
            expected: Self.golden, actual: actual,
            options: .init(includeAntiAliasing: true))
        #expect(strict.differingPixels == lenient.antiAliasedPixels)
        #expect(strict.antiAliasedPixels == 0)
        #expect(!strict.passed)
    }

    /// Two flat grey images and whether `threshold` tells them apart.
    struct GreyStep: Sendable, CustomTestStringConvertible {
        let expected: UInt8
        let actual: UInt8
        let threshold: Double
        let differs: Bool

        var testDescription: String { "\(expected) vs \(actual) at threshold \(threshold)" }
    }

    // For greys the YIQ distance is 0.5053·d², against 35215·t²: the limit is d ≈ 264·t.
    @Test(arguments: [
        GreyStep(expected: 128, actual: 154, threshold: 0.1, differs: false),
        GreyStep(expected: 128, actual: 155, threshold: 0.1, differs: true),
        GreyStep(expected: 128, actual: 148, threshold: 0.05, differs: true),
        GreyStep(expected: 128, actual: 148, threshold: 0.2, differs: false),
        GreyStep(expected: 128, actual: 129, threshold: 0, differs: true),
        GreyStep(expected: 0, actual: 255, threshold: 1, differs: false),
    ])
    func thresholdBoundsGreyDifferences(_ step: GreyStep) {
        let expected = RGBAImage.filled(RGBA(r: step.expected, g: step.expected, b: step.expected, a: 255))
        let actual = RGBAImage.filled(RGBA(r: step.actual, g: step.actual, b: step.actual, a: 255))
        let result = PixelComparison.compare(expected: expected, actual: actual, options: .init(threshold: step.threshold))
        #expect(result.differingPixels == (step.differs ? result.totalPixels : 0))
        #expect(result.passed == !step.differs)
    }

    /// A shadow's alpha ramp cut from `clipRow` down, and whether `threshold` notices.
    struct ShadowTail: Sendable, CustomTestStringConvertible {
        let clipRow: Int
        let threshold: Double
        let passes: Bool

        var testDescription: String { "shadow cut from row \(clipRow) at threshold \(threshold)" }
    }

    // The ramp fades out between rows 38 and 48: the fainter the cut-off tail, the lower the threshold that sees it.
    @Test(arguments: [
        ShadowTail(clipRow: 43, threshold: 0.1, passes: false),
        ShadowTail(clipRow: 45, threshold: 0.1, passes: true),
        ShadowTail(clipRow: 45, threshold: 0.05, passes: false),
        ShadowTail(clipRow: 48, threshold: 0.05, passes: true),
    ])
    func thresholdDecidesHowFaintAShadowTailMayGoMissing(_ tail: ShadowTail) {
        var clipped = SyntheticMarker()
        clipped.shadowClipRow = tail.clipRow
        let result = PixelComparison.compare(
            expected: Self.golden, actual: clipped.render(),
            options: .init(threshold: tail.threshold))
        #expect(result.passed == tail.passes)
    }

    @Test(arguments: [(0, 0.0, true), (1, 0.0, false), (3, 0.0005, true), (3, 0.0004, false)])
    func maximumDifferingShareBoundsTheCount(specks: Int, maximumShare: Double, passes: Bool) {
        let grey = RGBA(r: 90, g: 90, b: 90, a: 255)
        let expected = RGBAImage.filled(grey)
        var actual = expected
        // Isolated specks on a flat area cannot pass for anti-aliasing.
        for speck in 0..<specks { actual[10 + speck * 20, 30] = RGBA(r: 255, g: 0, b: 0, a: 255) }
        let result = PixelComparison.compare(
            expected: expected, actual: actual,
            options: .init(maximumDifferingShare: maximumShare))
        #expect(result.differingPixels == specks)
        #expect(result.differingShare == Double(specks) / 6000)
        #expect(result.passed == passes)
    }

    @Test(arguments: [
        (RGBAImage.Size(width: 100, height: 60), RGBAImage.Size(width: 102, height: 60)),
        (RGBAImage.Size(width: 100, height: 60), RGBAImage.Size(width: 100, height: 57)),
        (RGBAImage.Size(width: 100, height: 60), RGBAImage.Size(width: 96, height: 64)),
        (RGBAImage.Size(width: 100, height: 60), RGBAImage.Size(width: 0, height: 0)),
    ])
    func sizeMismatchFailsAndShowsTheMismatch(expectedSize: RGBAImage.Size, actualSize: RGBAImage.Size) {
        var expectedMarker = SyntheticMarker()
        (expectedMarker.width, expectedMarker.height) = (expectedSize.width, expectedSize.height)
        var actualMarker = SyntheticMarker()
        (actualMarker.width, actualMarker.height) = (actualSize.width, actualSize.height)

        let result = PixelComparison.compare(
            expected: expectedMarker.render(), actual: actualMarker.render(),
            options: .init(maximumDifferingShare: 1))

        let canvas = RGBAImage.Size(
            width: max(expectedSize.width, actualSize.width),
            height: max(expectedSize.height, actualSize.height))
        let common = RGBAImage.Size(
            width: min(expectedSize.width, actualSize.width),
            height: min(expectedSize.height, actualSize.height))
        #expect(result.sizeMismatch)
        #expect(!result.passed)
        #expect(result.expectedSize == expectedSize)
        #expect(result.actualSize == actualSize)
        #expect(result.diff.size == canvas)
        #expect(result.totalPixels == canvas.pixelCount)
        #expect(result.diff.count(of: PixelComparison.DiffColor.outsideCommonArea) == canvas.pixelCount - common.pixelCount)
        #expect(result.differingPixels >= canvas.pixelCount - common.pixelCount)
    }

    @Test(arguments: Regression.allCases)
    func diffIsOpaqueAndMarksWhatWasCounted(_ regression: Regression) {
        let result = PixelComparison.compare(expected: Self.golden, actual: regression.marker.render())
        let diff = result.diff
        #expect(diff.size == Self.golden.size)
        #expect(diff.count(of: PixelComparison.DiffColor.differing) == result.differingPixels)
        #expect(diff.count(of: PixelComparison.DiffColor.antiAliased) == result.antiAliasedPixels)

        var translucentPixels = 0
        var fadedGreyPixels = 0
        for y in 0..<diff.height {
            for x in 0..<diff.width {
                let pixel = diff[x, y]
                if pixel.a != 255 { translucentPixels += 1 }
                // Matching pixels show the expected image as a faint grey.
                if pixel.r == pixel.g && pixel.g == pixel.b && pixel.r >= 229 { fadedGreyPixels += 1 }
            }
        }
        #expect(translucentPixels == 0)
        #expect(fadedGreyPixels == result.totalPixels - result.differingPixels - result.antiAliasedPixels)
    }

    @Test func diffOfIdenticalImagesShowsTheExpectedImageFaded() {
        let diff = PixelComparison.compare(expected: Self.golden, actual: Self.golden).diff
        // Fully transparent corners wash out to white; the dark pill stays visibly darker.
        #expect(diff[0, 0] == RGBA(r: 255, g: 255, b: 255, a: 255))
        #expect(diff[50, 27].r < 240)
    }
}

extension RGBAImage {
    /// A 100×60 image of one colour.
    static func filled(_ color: RGBA) -> RGBAImage {
        var image = RGBAImage(width: 100, height: 60)
        for y in 0..<60 {
            for x in 0..<100 { image[x, y] = color }
        }
        return image
    }

    /// How many pixels are exactly `color`.
    func count(of color: RGBA) -> Int {
        var count = 0
        for y in 0..<height {
            for x in 0..<width where self[x, y] == color { count += 1 }
        }
        return count
    }
}
