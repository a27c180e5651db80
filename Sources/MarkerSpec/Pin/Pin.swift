/// A map pin: a teardrop in a category's colour, a white icon or a few characters in its circle,
/// its tip on the point it marks.
public struct Pin: Sendable, Hashable {
    /// What the pin's circle shows.
    public enum Face: Sendable, Hashable {
        case icon(PinIcon)
        /// One to three characters, drawn as text (never markup).
        case text(String)
        /// A user's monochrome SVG icon (Maki-style), filled in white, and the name it goes by.
        case svg(name: String, document: [UInt8])
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

    /// A pin with a user's SVG icon named `name` (the file's name, say), in `colour` or else the
    /// neutral colour.
    /// - Throws: `SpecError` for a file over `SVGIcon.maximumBytes`, not an SVG, or one that refers
    ///   to anything outside itself (files, the network, entities).
    public init(svgIcon document: [UInt8], name: String, colour: Colour? = nil) throws(SpecError) {
        try SVGIcon.check(document)
        face = .svg(name: name, document: document)
        self.colour = colour ?? Self.neutralColour
    }

    /// Where every pin is opaque, in points round its tip (MARKER.md: a circle 24 across, 32 tall
    /// in all): what placement on the map keeps apart. The circle and the point's top down to 8
    /// above the tip, where the point's sides (tangent to the circle, meeting at the tip) are 12
    /// apart, and the rest of the point. The shadow is not part of it.
    public static let footprint = MarkerFootprint(
        pill: MarkerFootprint.Box(left: -12, top: -32, right: 12, bottom: -8), dot: MarkerFootprint.Box(left: -6, top: -8, right: 6, bottom: 0))

    /// What a file name says the pin shows: the icon's name; `text-` and the text's ASCII letters
    /// and digits (anything else `_`); or `svg-` and the SVG icon's name so spelled. The hash that
    /// follows tells pictures apart.
    public var nameLabel: String {
        func spelled(_ text: String) -> String {
            text.unicodeScalars.map { scalar in
                scalar.isASCII && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar)) ? String(scalar) : "_"
            }.joined()
        }
        switch face {
        case .icon(let icon): return icon.rawValue
        case .text(let text): return "text-" + spelled(text)
        case .svg(let name, _): return "svg-" + String(spelled(name).prefix(24))
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
        self.pin = pin
        self.theme = theme
        self.scale = try MarkerRequest.checked(scale)
    }

    /// `pin-water-night@2x`: the name before its hash.
    public var baseName: String { "pin-\(pin.nameLabel)-\(theme.name)@\(scale)x" }
}
