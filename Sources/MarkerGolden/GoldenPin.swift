public import MarkerSpec

/// One entry of `Goldens/cases.json`'s `pins`: a pin to draw and compare with its golden image.
public struct GoldenPin: Sendable, Codable, Hashable {
    /// A built-in icon's name; or else `text`.
    public var icon: String?
    /// 1 to 3 characters.
    public var text: String?
    /// A CSS colour for the fill; absent for the icon's category colour.
    public var color: String?
    /// `day` or `night`.
    public var theme: String
    /// Pixels per point: 1, 1.5, 2, 3 or 4.
    public var scale: Double

    public init(icon: String? = nil, text: String? = nil, color: String? = nil, theme: String, scale: Double) {
        self.icon = icon
        self.text = text
        self.color = color
        self.theme = theme
        self.scale = scale
    }

    /// The pin request this case draws.
    func request() throws(GoldenError) -> PinRequest {
        guard let resolvedTheme = Theme.named(theme) else { throw GoldenError("theme \"\(theme)\" is not day or night") }
        guard let pixelScale = MarkerScale(exactly: scale) else { throw GoldenError("scale must be \(MarkerScale.choices) (got \(scale))") }
        do {
            let colour = try color.map { (text: String) throws(SpecError) in try Colour(css: text) }
            let pin: Pin
            switch (icon, text) {
            case (let name?, nil): pin = Pin(icon: try PinIcon(named: name), colour: colour)
            case (nil, let text?): pin = try Pin(text: text, colour: colour)
            default: throw GoldenError("a pin case gives exactly one of \"icon\" and \"text\"")
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
