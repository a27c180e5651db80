import MarkerFiles

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The reports of a golden-image verification run: an HTML page for people, JUnit XML for CI.
///
/// Both are returned as strings; the caller writes them, and the PNGs they refer to, to disk.
public enum GoldenReport {
    /// A share as a percentage with three decimals, e.g. `0.617%`.
    static func percent(_ share: Double) -> String {
        let thousandths = (share * 100_000).rounded()
        guard thousandths.isFinite, abs(thousandths) < 1e15 else { return "\(share * 100)%" }
        let magnitude = Int(abs(thousandths))
        let fraction = String(magnitude % 1000)
        let sign = thousandths < 0 ? "-" : ""
        return "\(sign)\(magnitude / 1000).\(String(repeating: "0", count: 3 - fraction.count))\(fraction)%"
    }

    /// One line on the run as a whole.
    static func summary(_ outcomes: [GoldenOutcome]) -> String {
        let failures = outcomes.count(where: { !$0.passed })
        if outcomes.isEmpty { return "No golden cases ran." }
        if failures == 0 { return "All \(outcomes.count) golden cases match." }
        return "\(failures) of \(outcomes.count) golden cases differ."
    }

    /// The reason a case failed, in words, falling back on its counts.
    static func failureMessage(_ outcome: GoldenOutcome) -> String {
        if let message = outcome.message { return message }
        if outcome.sizeMismatch { return "the rendered image's size differs from the golden image's" }
        return "\(outcome.differingPixels) of \(outcome.totalPixels) pixels differ (\(percent(outcome.differingShare)))"
    }
}

extension GoldenReport {
    /// Escaping for the markup the reports are written in, which must hold any case name or message.
    enum Escaping {
        /// `text` as character data of XML or HTML.
        static func text(_ text: String) -> String {
            escape(text) { scalar in
                switch scalar {
                case "&": "&amp;"
                case "<": "&lt;"
                // Escaped too so that "]]>" cannot appear.
                case ">": "&gt;"
                // Parsers read a literal carriage return as a line feed; a reference survives.
                case "\r": "&#13;"
                default: nil
                }
            }
        }

        /// `text` as a double-quoted attribute value of XML or HTML.
        static func attribute(_ text: String) -> String {
            escape(text) { scalar in
                switch scalar {
                case "&": "&amp;"
                case "<": "&lt;"
                case ">": "&gt;"
                case "\"": "&quot;"
                case "'": "&#39;"
                // Parsers turn literal whitespace in attributes into spaces; references survive.
                case "\t": "&#9;"
                case "\n": "&#10;"
                case "\r": "&#13;"
                default: nil
                }
            }
        }

        /// A relative file path as a URL reference, before attribute escaping.
        ///
        /// Characters that would end the path (`#`, `?`), start an escape (`%`) or make the first
        /// segment read as a scheme (`:`) are percent-encoded, as is everything outside ASCII.
        static func urlPath(_ path: String) -> String {
            PercentEncoding.encode(path, keeping: urlPathAllowed)
        }

        private static let urlPathAllowed = PercentEncoding.unreserved.union("/!$&'()*+,;=@".utf8)

        /// `text` with `replacement` applied, and characters XML 1.0 cannot carry at all replaced by U+FFFD.
        private static func escape(_ text: String, replacement: (Unicode.Scalar) -> String?) -> String {
            var escaped = ""
            escaped.unicodeScalars.reserveCapacity(text.unicodeScalars.count)
            for scalar in text.unicodeScalars {
                if let entity = replacement(scalar) {
                    escaped += entity
                } else if isAllowedInXML(scalar) {
                    escaped.unicodeScalars.append(scalar)
                } else {
                    escaped.unicodeScalars.append("\u{FFFD}")
                }
            }
            return escaped
        }

        /// Whether XML 1.0 allows `scalar` in a document, even as a character reference.
        private static func isAllowedInXML(_ scalar: Unicode.Scalar) -> Bool {
            switch scalar.value {
            case 0x9, 0xA, 0xD, 0x20...0xD7FF, 0xE000...0xFFFD, 0x10000...0x10FFFF: true
            default: false
            }
        }
    }
}
