import ArgumentParser
import MarkerSpec

extension Theme {
    /// The themes a comma-separated `--themes` list names, each once, in order; a name that is no
    /// theme is refused with `choices` (what may be given instead).
    static func list(_ text: String, choices: String) throws -> [Theme] {
        var result: [Theme] = []
        for name in text.split(separator: ",", omittingEmptySubsequences: false).map({ $0.trimmingSpaces }) {
            guard let theme = Theme.named(name) else { throw ValidationError("--themes: \"\(name)\" is not a theme (\(choices))") }
            if !result.contains(theme) { result.append(theme) }
        }
        return result
    }
}

extension Substring {
    /// The text without leading and trailing spaces and tabs, as typed around commas in a list flag.
    var trimmingSpaces: String {
        String(drop(while: { $0 == " " || $0 == "\t" }).reversed().drop(while: { $0 == " " || $0 == "\t" }).reversed())
    }
}
