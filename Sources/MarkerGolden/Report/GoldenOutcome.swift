public import MarkerPixels

/// How one golden-image case came out of a verification run, as the reports show it.
public struct GoldenOutcome: Sendable, Hashable {
    /// The case's name, unique within a run.
    public var caseName: String
    public var passed: Bool
    /// Pixels that differ beyond the threshold and are not anti-aliasing.
    public var differingPixels: Int
    /// Pixels that differ only by anti-aliasing and were not counted.
    public var antiAliasedPixels: Int
    /// Pixels compared; 0 when no comparison took place.
    public var totalPixels: Int
    /// The colour threshold of the comparison, 0 to 1.
    public var threshold: Double
    /// Whether the rendered image's size differs from the golden one's.
    public var sizeMismatch: Bool
    /// Why the case failed, in words; nil when the counts say it all.
    public var message: String?
    /// The golden PNG, by path relative to the reports; nil when there is none.
    public var expectedFile: String?
    /// The rendered PNG, by path relative to the reports; nil when rendering failed.
    public var actualFile: String?
    /// The diff PNG, by path relative to the reports; nil when nothing was compared.
    public var diffFile: String?

    public init(
        caseName: String, passed: Bool, differingPixels: Int = 0, antiAliasedPixels: Int = 0,
        totalPixels: Int = 0, threshold: Double = PixelComparison.Options().threshold,
        sizeMismatch: Bool = false, message: String? = nil,
        expectedFile: String? = nil, actualFile: String? = nil, diffFile: String? = nil
    ) {
        self.caseName = caseName
        self.passed = passed
        self.differingPixels = differingPixels
        self.antiAliasedPixels = antiAliasedPixels
        self.totalPixels = totalPixels
        self.threshold = threshold
        self.sizeMismatch = sizeMismatch
        self.message = message
        self.expectedFile = expectedFile
        self.actualFile = actualFile
        self.diffFile = diffFile
    }

    /// The outcome of `comparison`, with a message explaining a failure.
    public init(
        caseName: String, comparison: PixelComparison.Result,
        expectedFile: String?, actualFile: String?, diffFile: String?
    ) {
        let message: String? =
            if comparison.passed {
                nil
            } else if comparison.sizeMismatch {
                "rendered \(comparison.actualSize) but the golden image is \(comparison.expectedSize)"
            } else {
                "\(comparison.differingPixels) of \(comparison.totalPixels) pixels differ "
                    + "(\(GoldenReport.percent(comparison.differingShare)), "
                    + "\(GoldenReport.percent(comparison.options.maximumDifferingShare)) allowed)"
            }
        self.init(
            caseName: caseName, passed: comparison.passed,
            differingPixels: comparison.differingPixels, antiAliasedPixels: comparison.antiAliasedPixels,
            totalPixels: comparison.totalPixels, threshold: comparison.options.threshold,
            sizeMismatch: comparison.sizeMismatch, message: message,
            expectedFile: expectedFile, actualFile: actualFile, diffFile: diffFile)
    }

    /// `differingPixels / totalPixels`, or 0 when nothing was compared.
    public var differingShare: Double {
        totalPixels == 0 ? 0 : Double(differingPixels) / Double(totalPixels)
    }
}
