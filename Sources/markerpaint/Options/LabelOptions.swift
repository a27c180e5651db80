import ArgumentParser
import MarkerSpec

/// What labels read in: unit, locale and interval, declared once for every command that draws labels.
struct LabelOptions: ParsableArguments {
    @Option(help: "Unit of the labels: km, mi or nmi (nautical miles).")
    var unit: Marker.Unit = .km

    @Option(help: ArgumentHelp(LabelLocale.help, valueName: "locale"))
    var locale: String?

    @Option(help: ArgumentHelp(MarkerInterval.help, valueName: "number"))
    var interval: String?

    func validate() throws {
        _ = try parsedLocale()
        _ = try parsedInterval()
    }

    func parsedLocale() throws -> LabelLocale {
        do { return try LabelLocale(named: locale) } catch { throw error.validationError }
    }

    func parsedInterval() throws -> MarkerInterval {
        do { return try MarkerInterval(named: interval) } catch { throw error.validationError }
    }
}

/// `--themes`, for the commands that draw several.
struct ThemesOption: ParsableArguments {
    @Option(help: ArgumentHelp("Comma-separated themes: day, night (route draws both by default, progress day).", valueName: "list"))
    var themes: String?

    /// The themes named, or `fallback`'s; a name that is no theme is refused with `choices`.
    func parsed(default fallback: String, choices: String = "day, night") throws -> [Theme] {
        try Theme.list(themes ?? fallback, choices: choices)
    }
}
