import Foundation
import MarkerGolden
import MarkerPixels
import MarkerSpec
import Testing

#if canImport(FoundationXML)
import FoundationXML
#endif

@Suite("Golden reports")
struct ReportTests {
    /// A run with a pass, a pixel failure with awkward text and paths, a size mismatch and a missing golden.
    static let run: [GoldenOutcome] = [
        GoldenOutcome(
            caseName: "plain/12 km", passed: true, antiAliasedPixels: 14, totalPixels: 6000,
            expectedFile: "expected/plain-12km.png", actualFile: "actual/plain-12km.png",
            diffFile: "diff/plain-12km.png"),
        GoldenOutcome(
            caseName: #"label <b>"Zürich" & 'Bern'</b>"#, passed: false, differingPixels: 37,
            totalPixels: 6000, threshold: 0.05, message: "37 of 6000 pixels differ\n<see diff> & fix",
            expectedFile: "expected/label zürich#1.png", actualFile: "actual/label zürich#1.png",
            diffFile: "diff/label zürich#1.png"),
        GoldenOutcome(
            caseName: "wide", passed: false, differingPixels: 120, totalPixels: 6120, sizeMismatch: true,
            expectedFile: "expected/wide.png", actualFile: "actual/wide.png", diffFile: "diff/wide.png"),
        GoldenOutcome(
            caseName: "missing golden", passed: false, message: "no golden image",
            actualFile: "actual/missing.png"),
    ]

    // MARK: JUnit XML

    @Test func junitCountsCasesAndFailures() throws {
        let document = try XMLDocument(xmlString: GoldenReport.junitXML(Self.run, suiteName: "goldens"))
        let suite = try #require(document.rootElement())
        #expect(suite.name == "testsuite")
        #expect(suite.attribute(forName: "name")?.stringValue == "goldens")
        #expect(suite.attribute(forName: "tests")?.stringValue == "4")
        #expect(suite.attribute(forName: "failures")?.stringValue == "3")

        let cases = suite.elements(forName: "testcase")
        #expect(cases.map { $0.attribute(forName: "name")?.stringValue } == Self.run.map(\.caseName))
        #expect(cases.map { !$0.elements(forName: "failure").isEmpty } == Self.run.map { !$0.passed })
    }

    @Test func junitFailureCarriesMessageAndFiles() throws {
        let document = try XMLDocument(xmlString: GoldenReport.junitXML(Self.run, suiteName: "goldens"))
        let failures = try document.nodes(forXPath: "/testsuite/testcase/failure").compactMap { $0 as? XMLElement }
        #expect(failures.count == 3)
        #expect(
            failures.map { $0.attribute(forName: "message")?.stringValue } == [
                "37 of 6000 pixels differ\n<see diff> & fix",
                "the rendered image's size differs from the golden image's",
                "no golden image",
            ])
        let details = try #require(failures.first?.stringValue)
        #expect(details.contains("diff: diff/label zürich#1.png"))
        #expect(details.contains("at threshold 0.05"))
    }

    @Test func junitOfAnEmptyRunIsValid() throws {
        let document = try XMLDocument(xmlString: GoldenReport.junitXML([], suiteName: "goldens"))
        #expect(document.rootElement()?.attribute(forName: "tests")?.stringValue == "0")
        #expect(document.rootElement()?.attribute(forName: "failures")?.stringValue == "0")
    }

    /// Text that markup must not take literally, and what a parser should read back.
    struct AwkwardText: Sendable, CustomTestStringConvertible {
        let text: String
        let readBack: String

        init(_ text: String, readBack: String? = nil) {
            self.text = text
            self.readBack = readBack ?? text
        }

        var testDescription: String { text.debugDescription }
    }

    static let awkwardTexts = [
        AwkwardText("fish & chips"),
        AwkwardText("<script>alert(1)</script>"),
        AwkwardText(#""double" and 'single' quotes"#),
        AwkwardText("]]> ends CDATA"),
        AwkwardText("line\nbreak, tab\tand return\r"),
        AwkwardText("Zürich 🇨🇭 ≥ 5 km"),
        // XML 1.0 cannot carry most control characters, even as references.
        AwkwardText("bell\u{7} and nul\u{0}", readBack: "bell\u{FFFD} and nul\u{FFFD}"),
    ]

    @Test(arguments: awkwardTexts)
    func junitEscapesNamesAndMessages(_ awkward: AwkwardText) throws {
        let outcome = GoldenOutcome(caseName: awkward.text, passed: false, message: awkward.text)
        let document = try XMLDocument(xmlString: GoldenReport.junitXML([outcome], suiteName: awkward.text))
        let testcase = try #require(document.rootElement()?.elements(forName: "testcase").first)
        #expect(document.rootElement()?.attribute(forName: "name")?.stringValue == awkward.readBack)
        #expect(testcase.attribute(forName: "name")?.stringValue == awkward.readBack)
        #expect(
            testcase.elements(forName: "failure").first?.attribute(forName: "message")?.stringValue
                == awkward.readBack)
    }

    // MARK: HTML

    @Test func htmlListsFailingCasesFirstUnderASummary() throws {
        let page = try XMLDocument(xmlString: GoldenReport.html(Self.run, title: "Golden run"))
        let summary = try page.nodes(forXPath: "//p[contains(@class, 'summary')]").first?.stringValue
        #expect(summary == "3 of 4 golden cases differ.")
        let names = try page.nodes(forXPath: "//tbody/tr//span[@class='name']").map(\.stringValue)
        #expect(names == [#"label <b>"Zürich" & 'Bern'</b>"#, "wide", "missing golden", "plain/12 km"])
        let verdicts = try page.nodes(forXPath: "//tbody/tr/td[@class='verdict']").map(\.stringValue)
        #expect(verdicts == ["FAIL", "FAIL", "FAIL", "PASS"])
    }

    @Test func htmlShowsCountsThresholdAndMessage() throws {
        let page = try XMLDocument(xmlString: GoldenReport.html(Self.run, title: "Golden run"))
        let row = try #require(try page.nodes(forXPath: "//tbody/tr[1]").first as? XMLElement)
        let cells = row.elements(forName: "td").map { $0.stringValue ?? "" }
        #expect(cells[0].contains("37 of 6000 pixels differ\n<see diff> & fix"))
        #expect(cells[2].hasPrefix("37 / 6000"))
        #expect(cells[2].hasSuffix("0.617%"))
        #expect(cells[3] == "0.05")
    }

    @Test func htmlReferencesEachCasesImagesByEncodedRelativePath() throws {
        let page = try XMLDocument(xmlString: GoldenReport.html(Self.run, title: "Golden run"))
        let sources = try page.nodes(forXPath: "//tbody/tr[1]//img/@src").map(\.stringValue)
        #expect(
            sources == [
                "expected/label%20z%C3%BCrich%231.png",
                "actual/label%20z%C3%BCrich%231.png",
                "diff/label%20z%C3%BCrich%231.png",
            ])
        let missing = try page.nodes(forXPath: "//tbody/tr[3]/td[contains(@class, 'missing')]").map(\.stringValue)
        #expect(missing == ["no image", "no image"])
        let passing = try page.nodes(forXPath: "//tbody/tr[4]//img/@src").map(\.stringValue)
        #expect(passing == ["expected/plain-12km.png", "actual/plain-12km.png", "diff/plain-12km.png"])
    }

    @Test func htmlDrawsImagesEnlargedOnACheckerboard() {
        let page = GoldenReport.html(Self.run, title: "Golden run", scale: 4)
        #expect(page.contains("image-rendering: pixelated;"))
        #expect(page.contains("zoom: 4;"))
        #expect(page.contains("repeating-conic-gradient("))
    }

    @Test(arguments: awkwardTexts)
    func htmlEscapesAllText(_ awkward: AwkwardText) throws {
        let outcome = GoldenOutcome(
            caseName: awkward.text, passed: false, message: awkward.text,
            expectedFile: awkward.text)
        let html = GoldenReport.html([outcome], title: awkward.text)
        #expect(!html.contains("<script>"))
        let page = try XMLDocument(xmlString: html)
        #expect(try page.nodes(forXPath: "/html/head/title").first?.stringValue == awkward.readBack)
        #expect(try page.nodes(forXPath: "//span[@class='name']").first?.stringValue == awkward.readBack)
        #expect(try page.nodes(forXPath: "//p[@class='message']").first?.stringValue == awkward.readBack)
        let alt = try page.nodes(forXPath: "//img/@alt").first?.stringValue
        #expect(alt == "expected image of \(awkward.readBack)")
    }

    @Test func htmlOfAnEmptyRunSaysSo() throws {
        let page = try XMLDocument(xmlString: GoldenReport.html([], title: "Golden run"))
        #expect(
            try page.nodes(forXPath: "//p[contains(@class, 'summary')]").first?.stringValue
                == "No golden cases ran.")
        #expect(try page.nodes(forXPath: "//tbody/tr").isEmpty)
    }

    // MARK: Outcomes from comparisons

    @Test func outcomeOfAComparisonExplainsFailures() {
        let blank = RGBAImage(width: 20, height: 10)
        var specked = blank
        specked[5, 5] = RGBA(r: 200, g: 0, b: 0, a: 255)

        let pass = GoldenOutcome(
            caseName: "same", comparison: PixelComparison.compare(expected: blank, actual: blank),
            expectedFile: nil, actualFile: nil, diffFile: nil)
        #expect(pass.passed)
        #expect(pass.message == nil)
        #expect(pass.totalPixels == 200)

        let speck = GoldenOutcome(
            caseName: "speck",
            comparison: PixelComparison.compare(expected: blank, actual: specked),
            expectedFile: "e.png", actualFile: "a.png", diffFile: "d.png")
        #expect(!speck.passed)
        #expect(speck.differingPixels == 1)
        #expect(speck.threshold == 0.1)
        #expect(speck.message == "1 of 200 pixels differ (0.500%, 0.000% allowed)")
        #expect(speck.diffFile == "d.png")

        let wide = GoldenOutcome(
            caseName: "wide",
            comparison: PixelComparison.compare(
                expected: blank,
                actual: RGBAImage(width: 22, height: 10)),
            expectedFile: nil, actualFile: nil, diffFile: nil)
        #expect(!wide.passed)
        #expect(wide.sizeMismatch)
        #expect(wide.message == "rendered 22×10 but the golden image is 20×10")
    }
}
