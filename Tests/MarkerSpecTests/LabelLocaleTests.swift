import Foundation
import TestSupport
import Testing

@testable import MarkerSpec

@Suite("Label locales")
struct LabelLocaleTests {
    @Test(
        "a locale's decimal mark comes from CLDR, for BCP 47 and POSIX spellings alike",
        arguments: [
            ("de", Label.DecimalMark.comma), ("DE", .comma), ("de-DE", .comma), ("de_DE.UTF-8", .comma), ("de_DE@euro", .comma),
            ("de-CH", .point), ("de-LI", .point), ("de-AT", .comma), ("de-DE-1996", .comma), ("fr", .comma), ("fr-CA", .comma),
            ("en", .point), ("en-GB", .point), ("en-ZA", .comma), ("en_US_POSIX", .point), ("es", .comma), ("es-MX", .point),
            ("es-419", .point), ("es-AR", .comma), ("pt-BR", .comma), ("pt-PT", .comma), ("it-CH", .point), ("nl", .comma),
            ("ru", .comma), ("ja", .point), ("zh-Hant-TW", .point), ("sr-Latn-BA", .comma), ("ar-MA", .comma), ("hi", .point),
            ("C", .point), ("POSIX", .point), ("C.UTF-8", .point),
        ])
    func decimalMark(identifier: String, mark: Label.DecimalMark) throws {
        #expect(try LabelLocale(identifier).decimalMark == mark)
    }

    @Test("a locale is known by ICU's spelling of it", arguments: [("de-ch", "de_CH"), ("zh-hant-tw", "zh_Hant_TW"), ("es-419", "es_419")])
    func identifier(text: String, identifier: String) throws {
        #expect(try LabelLocale(text).identifier == identifier)
    }

    @Test(
        "a locale that is not one, or whose digits the font cannot draw, is refused in one line",
        arguments: [
            ("", "is not a locale"), ("d", "is not a locale"), ("deutsch", "is not a locale"), ("de-u-nu-latn", "is not a locale"),
            ("de--CH", "is not a locale"), ("de-CH-DE", "is not a locale"), ("de-CH-Latn", "is not a locale"),
            ("ｄｅ", "is not a locale"), ("de\n", "is not a locale"), ("xx", "not a language CLDR knows"),
            ("ar", "Arabic-Indic digits"), ("ar-EG", "Arabic-Indic digits"), ("fa", "Extended Arabic-Indic digits"),
            ("bn", "Bengali digits"), ("mr", "Devanagari digits"), ("my", "Myanmar digits"),
            (String(repeating: "de-", count: 30), "bytes long"),
        ])
    func refused(text: String, problem: String) {
        #expect {
            try LabelLocale(text)
        } throws: { error in
            guard let error = error as? SpecError else { return false }
            return error.field == .locale && error.problem.contains(problem) && !error.description.contains("\n")
        }
    }

    @Test("a refused locale whose language has a region with Latin digits names one")
    func suggestion() {
        #expect(
            throws: SpecError(
                .locale,
                "ar writes numbers in Arabic-Indic digits, which the marker font has no glyphs for; choose a locale that writes Latin digits, e.g. ar-AE"
            )
        ) {
            try LabelLocale("ar")
        }
    }

    @Test("tenths are written with the locale's mark; whole numbers read the same in every locale")
    func markers() throws {
        let german = try LabelLocale("de").decimalMark
        #expect(try Marker(kind: .distance, distance: 7.46, mark: german).label == "7,5km")
        #expect(try Marker(kind: .end, distance: 0.4, unit: .nmi, mark: german).label == "0,4nmi")
        #expect(try Marker(kind: .distance, distance: 12, mark: german) == Marker(kind: .distance, distance: 12))
        #expect(try Marker(kind: .distance, distance: 7.5, mark: german) != Marker(kind: .distance, distance: 7.5))
        let parts = [try Marker.Part(kind: .start, distance: 0, mark: german), try Marker.Part(kind: .end, distance: 8.6, mark: german)]
        #expect(try Marker(combining: parts).label == "start0km_end8,6km")
    }

    @Test("a combined marker's parts read with one decimal mark")
    func mixedMarks() throws {
        let parts = [try Marker.Part(kind: .end, distance: 4.5, mark: .comma), try Marker.Part(kind: .start, distance: 4.5)]
        #expect(throws: SpecError.self) { try Marker(combining: parts) }
        // A whole number has no mark, so it joins either.
        #expect(try Marker(combining: [try Marker.Part(kind: .start, distance: 0), parts[0]]).label == "start0km_end4,5km")
    }

    @Test("names spell the comma and read it back", arguments: ["7,5", "0,4", "9,9"])
    func spelled(number: String) throws {
        let part = try #require(Marker.Part(kind: .distance, spelled: Substring(number)))
        #expect(part.number == number)
        #expect(part.decimalMark == .comma)
    }

    @Test("only the spelling a label shows reads", arguments: ["7,50", "07,5", "7,", ",5", "7,5,5", "12,0", "12,55", "7.5,5"])
    func notSpelled(number: String) {
        #expect(Marker.Part(kind: .distance, spelled: Substring(number)) == nil)
    }

    /// The table as ICU makes it, when this machine has the ICU the committed table was made from.
    @Test("the committed table is what make_locale_table.c makes from ICU", .enabled(if: Self.systemICU == "72.1"))
    func tableIsGenerated() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("locale-table-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let generator = folder.appendingPathComponent("make_locale_table").path
        let source = Repository.path("Tests/MarkerSpecTests/Fixtures/make_locale_table.c")
        let made = try Self.shell("clang '\(source)' $(pkg-config --cflags --libs icu-i18n icu-uc) -o '\(generator)' && '\(generator)'")
        let committed = try String(contentsOfFile: Repository.path("Sources/MarkerSpec/Label/LabelLocale+Table.swift"), encoding: .utf8)
        #expect(made == committed)
        #expect(LabelLocale.tableSource == "ICU 72.1, CLDR 42.0")
    }

    /// The version of the ICU development files pkg-config finds, or nil.
    static let systemICU: String? = try? shell("pkg-config --modversion icu-i18n").trimmingCharacters(in: .whitespacesAndNewlines)

    /// Standard output of `sh -c command`; throws if it fails.
    static func shell(_ command: String) throws -> String { try Command.output("/bin/sh", ["-c", command]) }
}

@Suite("Marker intervals")
struct MarkerIntervalTests {
    @Test(
        "an interval is a multiple of 0.1 from 0.1 to 1000, written plainly",
        arguments: [("0.5", 5), ("5", 50), ("0.1", 1), ("1000", 10_000), ("2.50", 25), ("1", 10), ("07", 70), ("12.3000", 123)])
    func parsed(text: String, tenths: Int) throws {
        #expect(try MarkerInterval(text).tenths == tenths)
    }

    @Test(
        "anything else is refused with the reason",
        arguments: [
            ("", "decimal number"), ("0", "from 0.1"), ("0.0", "from 0.1"), ("-1", "decimal number"), ("0.25", "multiple of 0.1"),
            ("0.05", "multiple of 0.1"), ("1e3", "decimal number"), ("nan", "decimal number"), (".5", "decimal number"),
            ("5.", "decimal number"), ("1000.1", "from 0.1"), ("5,5", "decimal number"), ("99999999", "decimal number"),
            ("٥", "decimal number"),
        ])
    func refused(text: String, problem: String) {
        #expect {
            try MarkerInterval(text)
        } throws: { error in
            (error as? SpecError).map { $0.field == .interval && $0.problem.contains(problem) } ?? false
        }
    }

    @Test(
        "with a tenth in the interval a label keeps its tenth past 10; whole numbers read as ever",
        arguments: [
            (10.5, Label.Precision.tenths, "10.5"), (10.46, .tenths, "10.5"), (10.96, .tenths, "11"), (123.46, .tenths, "123.5"),
            (99_999.94, .tenths, "99999.9"), (7.5, .tenths, "7.5"), (10.5, .standard, "11"), (9.96, .standard, "10"),
        ])
    func precision(distance: Double, precision: Label.Precision, number: String) {
        #expect(Label.number(for: distance, precision: precision) == number)
    }

    @Test("a name reads a tenth past 10 back, and only as the label writes it", arguments: ["10.5", "123,5", "99999.9"])
    func spelled(number: String) throws {
        let part = try #require(Marker.Part(kind: .distance, spelled: Substring(number)))
        #expect(part.number == number)
        let request = try MarkerRequest(marker: Marker(part), theme: .day, scale: 2)
        #expect(ImageName.parse(request.baseName + "-0123456789")?.request == request)
    }

    @Test("what no label writes does not read", arguments: ["10.50", "10.0", "123.45", "10,0", "100000.1"])
    func notSpelled(number: String) {
        #expect(Marker.Part(kind: .distance, spelled: Substring(number)) == nil)
    }
}
