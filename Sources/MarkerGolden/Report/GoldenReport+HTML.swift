#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension GoldenReport {
    /// An HTML page with one row per case, failing cases first, each showing expected, actual and diff images side by side.
    ///
    /// Images are referenced by the outcomes' relative paths, drawn on a checkerboard so that
    /// transparency shows, and enlarged `scale` times without smoothing. The page is also
    /// well-formed XML, which keeps it checkable by an XML parser.
    public static func html(_ outcomes: [GoldenOutcome], title: String, scale: Int = 3) -> String {
        let failures = outcomes.filter { !$0.passed }
        let ordered = failures + outcomes.filter(\.passed)
        let summaryClass = failures.isEmpty ? "pass" : "fail"

        var page = """
            <!DOCTYPE html>
            <html lang="en">
            <head>
            <meta charset="utf-8" />
            <title>\(Escaping.text(title))</title>
            <style>
            \(stylesheet(scale: scale))
            </style>
            </head>
            <body>
            <h1>\(Escaping.text(title))</h1>
            <p class="summary \(summaryClass)">\(Escaping.text(summary(outcomes)))</p>
            <p class="legend">Diff: <span class="key differing">red</span> differs, \
            <span class="key anti-aliased">yellow</span> anti-aliasing only (not counted), \
            <span class="key outside">magenta</span> outside the other image; \
            matching pixels show the expected image in faint grey.</p>
            <table>
            <thead><tr><th>Case</th><th>Result</th><th>Differing pixels</th><th>Threshold</th>\
            <th>Expected</th><th>Actual</th><th>Diff</th></tr></thead>
            <tbody>

            """
        for outcome in ordered {
            page += row(outcome)
        }
        page += """
            </tbody>
            </table>
            </body>
            </html>

            """
        return page
    }

    private static func row(_ outcome: GoldenOutcome) -> String {
        let name = Escaping.text(outcome.caseName)
        var caseCell = "<span class=\"name\">\(name)</span>"
        if !outcome.passed {
            caseCell += "<p class=\"message\">\(Escaping.text(failureMessage(outcome)))</p>"
        }

        var counts = "\(outcome.differingPixels) / \(outcome.totalPixels)<br />\(percent(outcome.differingShare))"
        if outcome.antiAliasedPixels > 0 {
            counts += "<br /><span class=\"aside\">\(outcome.antiAliasedPixels) anti-aliased</span>"
        }
        if outcome.sizeMismatch {
            counts += "<br /><span class=\"aside\">size mismatch</span>"
        }

        let verdict = outcome.passed ? "pass" : "fail"
        return "<tr class=\"\(verdict)\">"
            + "<td class=\"case\">\(caseCell)</td>"
            + "<td class=\"verdict\">\(verdict.uppercased())</td>"
            + "<td class=\"counts\">\(counts)</td>"
            + "<td class=\"threshold\">\(outcome.threshold)</td>"
            + imageCell(outcome.expectedFile, role: "expected", caseName: outcome.caseName)
            + imageCell(outcome.actualFile, role: "actual", caseName: outcome.caseName)
            + imageCell(outcome.diffFile, role: "diff", caseName: outcome.caseName)
            + "</tr>\n"
    }

    private static func imageCell(_ file: String?, role: String, caseName: String) -> String {
        guard let file else { return "<td class=\"image \(role) missing\">no image</td>" }
        let source = Escaping.attribute(Escaping.urlPath(file))
        let alt = Escaping.attribute("\(role) image of \(caseName)")
        return "<td class=\"image \(role)\"><a href=\"\(source)\"><img src=\"\(source)\" alt=\"\(alt)\" /></a></td>"
    }

    private static func stylesheet(scale: Int) -> String {
        """
        body { font: 14px/1.4 system-ui, sans-serif; margin: 1.5em; color: #222; }
        .summary { font-size: 1.25em; font-weight: 600; }
        .fail .verdict, .summary.fail { color: #b00020; }
        .pass .verdict, .summary.pass { color: #16743a; }
        .legend, .aside { color: #666; }
        .key { padding: 0 0.3em; color: #000; }
        .key.differing { background: #f00; }
        .key.anti-aliased { background: #ff0; }
        .key.outside { background: #f0f; }
        table { border-collapse: collapse; }
        th, td { border-bottom: 1px solid #ddd; padding: 6px 10px; text-align: left; vertical-align: top; }
        tr.fail { background: #fff4f4; }
        .name { font-family: ui-monospace, monospace; font-weight: 600; }
        .message { margin: 0.3em 0 0; max-width: 28em; }
        .image img {
          display: block;
          zoom: \(scale);
          image-rendering: pixelated;
          background: repeating-conic-gradient(#c8c8c8 0 25%, #fff 0 50%) 0 0 / 4px 4px;
        }
        .missing { color: #999; font-style: italic; }
        """
    }
}
