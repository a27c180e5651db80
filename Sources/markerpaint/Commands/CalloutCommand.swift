import ArgumentParser
import MarkerFiles
import MarkerPins
import MarkerSpec
import SystemPackage

/// Draws one callout, the bubble a tapped pin opens, into a folder and says where it is.
struct CalloutCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "callout",
        abstract: "Draw one callout: a speech bubble with a title, detail lines and a status badge, its tail's tip the anchor.",
        discussion: """
            Examples:
              markerpaint callout --title 'Water at Koča na Gozdu' --line 'Tap by the door' --badge open
              markerpaint callout --title 'Vršič' --line '1,611 m' --line 'Closed in winter' --badge closed --badge-color '#C62828' --dark --json
            Text is text, never markup; it wraps within 240 pt and is cut with … after 2 lines of title and 3 of each line.
            At most \(Callout.limits.lines) lines; a title of \(Callout.limits.titleCharacters) characters, a line of \(Callout.limits.lineCharacters), a badge of \(Callout.limits.badgeCharacters).
            """
    )

    @Option(help: ArgumentHelp("The title, 15 pt Semi Bold, up to 2 lines.", valueName: "text"))
    var title: String

    @Option(help: ArgumentHelp("A detail line, 12 pt, up to 3 lines each; repeat for more (at most \(Callout.limits.lines)).", valueName: "text"))
    var line: [String] = []

    @Option(help: ArgumentHelp("A status badge at the title's right: a few words on a coloured pill.", valueName: "text"))
    var badge: String?

    @Option(help: ArgumentHelp("The badge's colour, '#RRGGBB' (default #2E7D32).", valueName: "colour"))
    var badgeColor: String?

    @Option(help: ArgumentHelp("A photo (JPEG or PNG) across the top, cover-cropped to 216 × 120 pt: at most 10 MB, 10,000 pixels a side, 40 million pixels.", valueName: "file"))
    var photo: String?

    @OptionGroup var look: LookOptions

    @OptionGroup var output: PictureOutputOptions

    func validate() throws {
        if badgeColor != nil && badge == nil { throw ValidationError("--badge-color colours a badge; give --badge too") }
        // The photo is read and decoded once, by `run`; the rest is checked here.
        _ = try makeCallout(photo: nil)
    }

    /// The photo's bytes, read within the limit and checked whole (header, size, every byte
    /// decoded), or nil without `--photo`.
    func readPhoto() throws -> [UInt8]? {
        guard let photo else { return nil }
        let bytes: [UInt8]
        do {
            bytes = try FilePath(photo).readAll(limit: CalloutPhoto.limits.bytes)
        } catch {
            throw ValidationError("--photo \(photo): \(error.message)")
        }
        do { try CalloutPhoto(bytes).check() } catch { throw ValidationError("--photo \(photo): \(error.message)") }
        return bytes
    }

    /// The callout the flags describe.
    func makeCallout(photo: [UInt8]?) throws -> Callout {
        let colour: Colour?
        do { colour = try badgeColor.map(Colour.init(css:)) } catch { throw ValidationError("--badge-color \(error.problem)") }
        do throws(SpecError) {
            var madeBadge: Callout.Badge? = nil
            if let badge { madeBadge = try Callout.Badge(text: badge, colour: colour) }
            return try Callout(title: title, lines: line, badge: madeBadge, photo: photo)
        } catch {
            throw error.validationError
        }
    }

    func run() throws {
        let request: CalloutRequest
        do {
            request = try CalloutRequest(callout: makeCallout(photo: readPhoto()), theme: look.makeTheme(), scale: look.pixelScale())
        } catch let error as SpecError {
            throw error.validationError
        }
        let (image, bytes) = try CalloutRenderer().render(request, format: output.format)
        try output.write(bytes, as: image)
    }
}
