import ArgumentParser
import MarkerSpec
import SystemPackage

/// How the marker looks: theme or palette, and pixel scale.
struct LookOptions: ParsableArguments {
    enum ThemeChoice: String, EnumerableFlag {
        case day, dark

        static func help(for value: ThemeChoice) -> ArgumentHelp? {
            switch value {
            case .day: "Day theme, for light base maps (the default)."
            case .dark: "Night theme, for dark base maps."
            }
        }
    }

    @Flag(exclusivity: .exclusive)
    var theme: ThemeChoice?

    @Option(
        help: ArgumentHelp(
            """
            A JSON palette file: {"name": "brand", "base": "day", "pillFill": "rgba(0,90,200,0.9)", \
            "pillBorder": …, "label": "#FFFFFF", "dotFill": …, "dotBorder": …, "shadow": …}.
            """, valueName: "file"))
    var palette: String?

    @Option(help: "Pixel scale: 1, 1.5, 2, 3 or 4 (drawn natively at that size).")
    var scale = "2"

    func validate() throws {
        _ = try pixelScale()
        if palette != nil, let theme {
            throw ValidationError("--palette sets the colours; leave out --\(theme.rawValue) (a palette may name \"base\": \"day\" or \"night\")")
        }
    }

    /// The `--scale` given, checked.
    func pixelScale() throws -> MarkerScale {
        do { return try MarkerScale(scale) } catch { throw error.validationError }
    }

    /// The chosen theme, reading the palette file if one was given.
    func makeTheme() throws -> Theme {
        if let palette {
            do { return try Theme.load(paletteFile: FilePath(palette)) } catch { throw error.validationError }
        }
        return theme == .dark ? .night : .day
    }
}
