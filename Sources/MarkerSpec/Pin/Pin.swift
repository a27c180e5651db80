/// A map pin: a teardrop in a category's colour, a white icon or a few characters in its circle,
/// its tip on the point it marks.
public struct Pin: Sendable, Hashable {
    /// What the pin's circle shows.
    public enum Face: Sendable, Hashable {
        case icon(PinIcon)
        /// One to three characters, drawn as text (never markup).
        case text(String)
    }

    public let face: Face
    public let colour: Colour

    /// The fill of a pin whose category has no colour of its own.
    public static let neutralColour = Colour(rgb: 0x37, 0x47, 0x4F)
    /// The most characters a pin's text may have: more do not fit its circle.
    public static let textLimit = 3

    /// A pin with `icon`, in `colour` or else the icon's category colour.
    public init(icon: PinIcon, colour: Colour? = nil) {
        face = .icon(icon)
        self.colour = colour ?? icon.categoryColour
    }

    /// A pin with `text` (1 to 3 characters as a reader counts them), in `colour` or else the neutral colour.
    /// - Throws: `SpecError` for empty text, more than 3 characters, or a control character.
    public init(text: String, colour: Colour? = nil) throws(SpecError) {
        guard (1...Self.textLimit).contains(text.count) else {
            throw SpecError(.text, "must be 1 to \(Self.textLimit) characters (got \(text.count): \(SpecError.quoted(text)))")
        }
        guard !text.unicodeScalars.contains(where: { $0.properties.generalCategory == .control || $0.properties.isWhitespace }) else {
            throw SpecError(.text, "\(SpecError.quoted(text)) has a space or a control character; a pin shows 1 to 3 visible characters")
        }
        face = .text(text)
        self.colour = colour ?? Self.neutralColour
    }

    /// What a file name says the pin shows: the icon's name, or `text-` and the text's ASCII
    /// letters and digits (anything else `_`); the hash that follows tells pictures apart.
    public var nameLabel: String {
        switch face {
        case .icon(let icon): return icon.rawValue
        case .text(let text):
            let spelled = text.unicodeScalars.map { scalar in
                scalar.isASCII && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar)) ? String(scalar) : "_"
            }
            return "text-" + spelled.joined()
        }
    }
}

/// A pin to draw: the pin, its theme and its scale.
public struct PinRequest: Sendable, Hashable {
    public let pin: Pin
    public let theme: Theme
    public let scale: MarkerScale

    /// - Throws: `SpecError` for a scale markerpaint does not draw.
    public init(pin: Pin, theme: Theme, scale: MarkerScale) throws(SpecError) {
        guard MarkerRequest.scales.contains(scale) else {
            throw SpecError(.scale, "must be \(MarkerScale.choices) (got \(scale))")
        }
        self.pin = pin
        self.theme = theme
        self.scale = scale
    }

    /// `pin-water-night@2x`: the name before its hash.
    public var baseName: String { "pin-\(pin.nameLabel)-\(theme.name)@\(scale)x" }
}

/// A drawn pin: its request, size, anchor (the tip) and the hash of its bytes, which names it.
public struct PinImage: Sendable, Hashable {
    public let request: PinRequest
    public let width: Int
    public let height: Int
    /// The pin's tip in pixels: the point that goes on the map.
    public let anchor: PixelPoint
    /// Lowercase hex SHA-256 of the file's bytes.
    public let sha256: String
    public let format: ImageFormat
    /// `pin-water-day@2x-3f9a1c2b7d.png`.
    public let fileName: String

    /// The image of `bytes` in `format`, hashing them.
    public init(request: PinRequest, bytes: [UInt8], format: ImageFormat, width: Int, height: Int, anchor: PixelPoint) {
        self.request = request
        self.width = width
        self.height = height
        self.anchor = anchor
        self.format = format
        sha256 = ContentHash.sha256Hex(bytes)
        fileName = "\(request.baseName)-\(sha256.prefix(ImageName.hashLength))\(format.fileExtension)"
    }
}
