import ArgumentParser
import MarkerFiles
import MarkerPins
import MarkerPNG
import MarkerSpec
import SystemPackage

/// Draws one map pin into a folder and says where it is.
struct PinCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pin",
        abstract: "Draw one map pin: a teardrop in a category's colour with a white icon or up to 3 characters.",
        discussion: """
            Examples:
              markerpaint pin --icon water                   # ./pin-water-day@2x-<hash>.png
              markerpaint pin --icon summit --dark --json    # one JSON object; the anchor is the tip
              markerpaint pin --text 12 --color '#8E24AA'    # ./pin-text-12-day@2x-<hash>.png
            Icons: \(PinIcon.choices).
            """
    )

    @Option(help: ArgumentHelp("A built-in icon: \(PinIcon.choices).", valueName: "name"))
    var icon: String?

    @Option(help: ArgumentHelp("A monochrome SVG icon (Maki-style), filled in white: self-contained, at most 256 KB.", valueName: "file"))
    var iconFile: String?

    @Option(help: ArgumentHelp("1 to 3 characters drawn in the circle, as text (never markup).", valueName: "text"))
    var text: String?

    @Option(help: ArgumentHelp("Fill colour, '#RRGGBB' (default: the icon's category colour; #37474F for text).", valueName: "colour"))
    var color: String?

    @OptionGroup var look: LookOptions

    @OptionGroup var output: PictureOutputOptions

    func validate() throws {
        switch [icon, iconFile, text].compactMap({ $0 }).count {
        case 0: throw ValidationError("say what the pin shows: --icon NAME, --icon-file ICON.svg or --text ABC")
        case 1: break
        default: throw ValidationError("--icon, --icon-file and --text each say what the pin shows; give one")
        }
        // An icon file is read once, by `run`; the rest is checked here.
        if iconFile == nil { _ = try makePin() }
    }

    /// The pin the flags describe.
    func makePin() throws -> Pin {
        let colour: Colour?
        do { colour = try color.map(Colour.init(css:)) } catch { throw ValidationError("--color \(error.problem)") }
        if let iconFile {
            let path = FilePath(iconFile)
            let document: [UInt8]
            do { document = try path.readAll(limit: SVGIcon.maximumBytes) } catch { throw ValidationError("--icon-file \(iconFile): \(error.message)") }
            do {
                let pin = try Pin(svgIcon: document, name: path.stem ?? "icon", colour: colour)
                try PinRenderer.check(svgIcon: document)
                return pin
            } catch let error as SpecError {
                throw ValidationError("--icon-file \(iconFile): \(error.description)")
            } catch {
                throw ValidationError("--icon-file \(iconFile): \(error)")
            }
        }
        do {
            if let icon { return Pin(icon: try PinIcon(named: icon), colour: colour) }
            return try Pin(text: text ?? "", colour: colour)
        } catch {
            throw error.validationError
        }
    }

    func run() throws {
        let request: PinRequest
        do {
            request = try PinRequest(pin: makePin(), theme: look.makeTheme(), scale: look.pixelScale())
        } catch let error as SpecError {
            throw error.validationError
        }
        let (image, bytes) = try PinRenderer().render(request, format: output.format)
        try output.write(bytes, as: image)
    }
}
