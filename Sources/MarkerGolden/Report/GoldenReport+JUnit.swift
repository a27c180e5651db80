extension GoldenReport {
    /// JUnit XML for CI: one `testsuite` named `suiteName`, one `testcase` per outcome, a `failure` in each failing one.
    public static func junitXML(_ outcomes: [GoldenOutcome], suiteName: String) -> String {
        let suite = Escaping.attribute(suiteName)
        let failures = outcomes.count(where: { !$0.passed })
        var xml = """
            <?xml version="1.0" encoding="UTF-8"?>
            <testsuite name="\(suite)" tests="\(outcomes.count)" failures="\(failures)" errors="0" skipped="0">

            """
        for outcome in outcomes {
            let name = Escaping.attribute(outcome.caseName)
            guard !outcome.passed else {
                xml += "  <testcase classname=\"\(suite)\" name=\"\(name)\"/>\n"
                continue
            }
            let message = Escaping.attribute(failureMessage(outcome))
            xml += """
                  <testcase classname="\(suite)" name="\(name)">
                    <failure message="\(message)" type="GoldenImageMismatch">\(Escaping.text(failureDetails(outcome)))</failure>
                  </testcase>

                """
        }
        xml += "</testsuite>\n"
        return xml
    }

    /// The body of a `failure`: the counts, and where to find the images.
    private static func failureDetails(_ outcome: GoldenOutcome) -> String {
        var lines = [
            "\(outcome.differingPixels) of \(outcome.totalPixels) pixels differ "
                + "(\(percent(outcome.differingShare))) at threshold \(outcome.threshold); "
                + "\(outcome.antiAliasedPixels) anti-aliased pixels not counted"
        ]
        if outcome.sizeMismatch { lines.append("the image sizes differ") }
        lines.append("expected: \(outcome.expectedFile ?? "none")")
        lines.append("actual: \(outcome.actualFile ?? "none")")
        lines.append("diff: \(outcome.diffFile ?? "none")")
        return lines.joined(separator: "\n")
    }
}
