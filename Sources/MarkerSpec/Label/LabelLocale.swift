/// A locale as labels read it: the decimal mark its numbers take (`de` writes `7,5km`).
///
/// The marks come from CLDR, through a table made once from ICU (`LabelLocale+Table.swift`), not
/// from the machine's locale data or environment: one input draws the same picture, under the same
/// name, on any machine. Only the decimal mark changes. Units stay the symbols MARKER.md draws (`km`,
/// `mi`, `nmi`), numbers have no grouping (labels go to 100000, and a pill should stay short), and a
/// locale whose numbers are not in Latin digits is refused: Inter has no Arabic-Indic or Devanagari
/// digits, and a marker must not show missing glyphs.
public struct LabelLocale: Sendable, Hashable, CustomStringConvertible {
    /// How a locale writes numbers, as the table records it.
    enum Numbers: Sendable, Equatable {
        /// Latin digits with this decimal mark.
        case latin(Label.DecimalMark)
        /// Digits of another script, by CLDR's numbering system name (`arab`, `deva`).
        case native(String)

        var isLatin: Bool {
            if case .latin = self { return true }
            return false
        }
    }

    /// The locale as asked for, in ICU's spelling (`de_CH`).
    public let identifier: String
    public let decimalMark: Label.DecimalMark

    /// The labels markerpaint draws without `--locale`: a decimal point.
    public static let standard = LabelLocale(identifier: "en", decimalMark: .point)

    /// Longer than any language, script, region and variants; longer input is refused unread.
    static let maximumLength = 64

    public var description: String { identifier }

    private init(identifier: String, decimalMark: Label.DecimalMark) {
        self.identifier = identifier
        self.decimalMark = decimalMark
    }

    /// The locale `text` names, as BCP 47 (`de-CH`, `zh-Hant-TW`, `es-419`) or POSIX (`de_CH.UTF-8`,
    /// `C`) spells it, in any case. A region or script CLDR does not list falls back to its language.
    /// - Throws: `SpecError` (field `locale`) for a malformed or unknown locale, or one whose digits are not Latin.
    public init(_ text: String) throws(SpecError) {
        guard text.utf8.count <= Self.maximumLength else {
            throw SpecError(.locale, "is \(text.utf8.count) bytes long; a locale such as de or pt-BR is a few letters")
        }
        guard let identifier = Self.canonical(text) else {
            throw SpecError(.locale, "\(SpecError.quoted(text)) is not a locale: give a language, e.g. de, or a language and region, e.g. de-CH")
        }
        if identifier == "C" || identifier == "POSIX" {
            self = .standard
            return
        }
        var key = Substring(identifier)
        while true {
            switch Self.table[String(key)] {
            case .latin(let mark)?:
                self.init(identifier: identifier, decimalMark: mark)
                return
            case .native(let digits)?:
                let language = identifier.prefix { $0 != "_" }
                let latin = Self.table.filter { $0.key.hasPrefix(language + "_") && $0.value.isLatin }.keys.sorted()
                let instead = latin.first.map { ", e.g. \($0.replacing("_", with: "-"))" } ?? ""
                throw SpecError(
                    .locale,
                    "\(identifier) writes numbers in \(Self.digitName(digits)), which the marker font has no glyphs for; "
                        + "choose a locale that writes Latin digits\(instead)")
            case nil:
                guard let cut = key.lastIndex(of: "_") else {
                    throw SpecError(.locale, "\(SpecError.quoted(text)) is not a language CLDR knows (\(Self.tableSource))")
                }
                key = key[..<cut]
            }
        }
    }

    /// The locale `name` names, or the standard one if there is none (an option or field left out).
    public init(named name: String?) throws(SpecError) {
        self = try name.map { (name) throws(SpecError) in try LabelLocale(name) } ?? .standard
    }

    /// `text` as ICU spells a locale (`language_Script_REGION_VARIANT`), or nil if it is not one.
    /// A POSIX encoding or modifier (`.UTF-8`, `@euro`) is dropped; BCP 47 extensions (`-u-nu-latn`) are refused.
    static func canonical(_ text: String) -> String? {
        let bare = text.prefix { $0 != "." && $0 != "@" }
        if bare == "C" || bare == "POSIX" { return String(bare) }
        let subtags = bare.split(separator: "-", omittingEmptySubsequences: false).flatMap {
            $0.split(separator: "_", omittingEmptySubsequences: false)
        }
        guard let language = subtags.first, (2...3).contains(language.utf8.count), Self.isLetters(language) else { return nil }
        var parts = [language.lowercased()]
        var expect = 1  // 1: script, region or variant next; 2: region or variant; 3: variants only
        for subtag in subtags.dropFirst() {
            let count = subtag.utf8.count
            if expect <= 1, count == 4, Self.isLetters(subtag) {
                parts.append(subtag.prefix(1).uppercased() + subtag.dropFirst().lowercased())
                expect = 2
            } else if expect <= 2, count == 2, Self.isLetters(subtag) {
                parts.append(subtag.uppercased())
                expect = 3
            } else if expect <= 2, count == 3, subtag.utf8.allSatisfy({ (0x30...0x39).contains($0) }) {
                parts.append(String(subtag))
                expect = 3
            } else if (5...8).contains(count) || (count == 4 && subtag.utf8.first.map { (0x30...0x39).contains($0) } == true),
                subtag.utf8.allSatisfy({ Self.isAlphanumeric($0) })
            {
                // A variant (`1996`, `valencia`): read, but CLDR's numbers do not differ by one.
                parts.append(subtag.uppercased())
                expect = 3
            } else {
                return nil
            }
        }
        return parts.joined(separator: "_")
    }

    private static func isLetters(_ text: Substring) -> Bool {
        text.utf8.allSatisfy { (0x41...0x5A).contains($0 & ~0x20) }
    }

    private static func isAlphanumeric(_ byte: UInt8) -> Bool {
        (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte & ~0x20)
    }

    /// A numbering system's name as a reader knows it.
    private static func digitName(_ system: String) -> String {
        switch system {
        case "arab": "Arabic-Indic digits"
        case "arabext": "Extended Arabic-Indic digits"
        case "beng": "Bengali digits"
        case "deva": "Devanagari digits"
        case "mymr": "Myanmar digits"
        case "tibt": "Tibetan digits"
        default: "its own digits (\(system))"
        }
    }
}
