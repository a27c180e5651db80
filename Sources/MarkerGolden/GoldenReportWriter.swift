import MarkerFiles
import MarkerPixels
import MarkerRender
import MarkerSpec
import MarkerPNG
public import SystemPackage

/// Writes a verification's evidence: for each failing case the expected, actual and diff images,
/// then `index.html` and `junit.xml` over all cases.
public enum GoldenReportWriter {
    public static let htmlFileName = "index.html"
    public static let junitFileName = "junit.xml"

    /// Writes the report into `directory` (created if needed) and returns each case's outcome.
    @discardableResult
    public static func write(_ comparisons: [GoldenComparison], to directory: FilePath) throws(GoldenError) -> [GoldenOutcome] {
        let folder: Folder
        do {
            folder = try Folder.create(directory)
        } catch {
            throw GoldenError("cannot make report folder: \(error.message)")
        }
        func write(_ bytes: [UInt8], as name: String) throws(GoldenError) {
            do { try folder.write(bytes, as: name) } catch { throw GoldenError(error.message) }
        }
        let encoder = try GoldenError.drawing { try PNGEncoder() }
        var outcomes: [GoldenOutcome] = []
        for comparison in comparisons {
            guard !comparison.passed else {
                outcomes.append(
                    GoldenOutcome(
                        caseName: comparison.name, passed: true,
                        totalPixels: comparison.result?.totalPixels ?? 0,
                        threshold: comparison.result?.options.threshold ?? GoldenSuite.defaultOptions.threshold))
                continue
            }
            func save(_ image: RGBAImage?, _ suffix: String) throws(GoldenError) -> String? {
                guard let image else { return nil }
                let name = "\(comparison.name).\(suffix).png"
                try write(try GoldenError.drawing { try encoder.encode(image) }, as: name)
                return name
            }
            let expected = try save(comparison.expected, "expected")
            let actual = try save(comparison.actual, "actual")
            let diff = try save(comparison.result?.diff, "diff")
            if let result = comparison.result {
                outcomes.append(
                    GoldenOutcome(
                        caseName: comparison.name, comparison: result,
                        expectedFile: expected, actualFile: actual, diffFile: diff))
            } else {
                outcomes.append(
                    GoldenOutcome(
                        caseName: comparison.name, passed: false, message: comparison.problem,
                        actualFile: actual))
            }
        }
        try write(Array(GoldenReport.html(outcomes, title: "markerpaint golden verification").utf8), as: htmlFileName)
        try write(Array(GoldenReport.junitXML(outcomes, suiteName: "markerpaint.goldens").utf8), as: junitFileName)
        return outcomes
    }
}
