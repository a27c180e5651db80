import MarkerFiles
import MarkerSpec
import SystemPackage

/// One entry of `Goldens/cases.json`'s `pins`: a pin to draw and compare with its golden image.
public struct GoldenPin: Sendable, Codable, Hashable {
    /// A built-in icon's name; or else `text`.
    public var icon: String?
    /// 1 to 3 characters.
    public var text: String?
    /// A user's SVG icon, relative to the goldens folder.
    public var iconFile: String?
    /// A CSS colour for the fill; absent for the icon's category colour.
    public var color: String?
    /// `day` or `night`.
    public var theme: String
    /// Pixels per point: 1, 1.5, 2, 3 or 4.
    public var scale: Double

    public init(icon: String? = nil, text: String? = nil, iconFile: String? = nil, color: String? = nil, theme: String, scale: Double) {
        self.icon = icon
        self.text = text
        self.iconFile = iconFile
        self.color = color
        self.theme = theme
        self.scale = scale
    }

    /// The pin request this case draws; an icon file is read relative to `directory`.
    func request(relativeTo directory: FilePath) throws(GoldenError) -> PinRequest {
        guard let resolvedTheme = Theme.named(theme) else { throw GoldenError("theme \"\(theme)\" is not day or night") }
        guard let pixelScale = MarkerScale(exactly: scale) else { throw GoldenError("scale must be \(MarkerScale.choices) (got \(scale))") }
        do {
            let colour = try color.map { (text: String) throws(SpecError) in try Colour(css: text) }
            let pin: Pin
            switch (icon, text, iconFile) {
            case (let name?, nil, nil): pin = Pin(icon: try PinIcon(named: name), colour: colour)
            case (nil, let text?, nil): pin = try Pin(text: text, colour: colour)
            case (nil, nil, let file?):
                let path = directory.appending(file)
                let document: [UInt8]
                do { document = try path.readAll(limit: SVGIcon.maximumBytes) } catch { throw GoldenError("icon file \(file): \(error.message)") }
                pin = try Pin(svgIcon: document, name: path.stem ?? "icon", colour: colour)
            default: throw GoldenError("a pin case gives exactly one of \"icon\", \"text\" and \"iconFile\"")
            }
            return try PinRequest(pin: pin, theme: resolvedTheme, scale: pixelScale)
        } catch let error as SpecError {
            throw GoldenError(error.description)
        } catch let error as GoldenError {
            throw error
        } catch {
            throw GoldenError("\(error)")
        }
    }
}
