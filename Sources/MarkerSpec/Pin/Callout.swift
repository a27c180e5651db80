/// A callout: the speech bubble a tapped pin opens, with a title, detail lines and a status
/// badge, its tail's tip on the pin's point.
///
/// Its text is text, never markup. How much may be given is bounded (`limits`); how much is drawn
/// is bounded again by the bubble: two lines of title and three of each detail line, then "…".
public struct Callout: Sendable, Hashable {
    public let title: String
    public let lines: [String]
    public let badge: Badge?
    /// A photo's bytes (JPEG or PNG), drawn cover-cropped across the top; checked when drawn.
    public let photo: [UInt8]?

    /// A status badge: a few words on a coloured pill at the title's right.
    public struct Badge: Sendable, Hashable {
        public let text: String
        public let colour: Colour

        /// A badge's colour unless one is given: a green for "open", "free", "ok".
        public static let defaultColour = Colour(rgb: 0x2E, 0x7D, 0x32)

        public init(text: String, colour: Colour? = nil) throws(SpecError) {
            self.text = try Callout.checked(text, field: .badge, limit: Callout.limits.badgeCharacters)
            self.colour = colour ?? Self.defaultColour
        }
    }

    /// What a callout may be given: longer text is refused rather than shaped and thrown away.
    public static let limits = (titleCharacters: 200, lineCharacters: 300, lines: 6, badgeCharacters: 24)

    /// - Throws: `SpecError` for an empty title, more than `limits` allow, or text that is blank.
    public init(title: String, lines: [String] = [], badge: Badge? = nil, photo: [UInt8]? = nil) throws(SpecError) {
        self.title = try Self.checked(title, field: .title, limit: Self.limits.titleCharacters)
        guard lines.count <= Self.limits.lines else {
            throw SpecError(.line, "is given \(lines.count) times; a callout has at most \(Self.limits.lines) detail lines")
        }
        var checkedLines: [String] = []
        for line in lines { checkedLines.append(try Self.checked(line, field: .line, limit: Self.limits.lineCharacters)) }
        self.lines = checkedLines
        self.badge = badge
        self.photo = photo
    }

    /// `text` as one paragraph: line breaks, tabs and other control characters become spaces.
    static func checked(_ text: String, field: SpecError.Field, limit: Int) throws(SpecError) -> String {
        guard text.count <= limit else {
            throw SpecError(field, "is \(text.count) characters; a callout takes at most \(limit)")
        }
        let flattened = String(String.UnicodeScalarView(text.unicodeScalars.map { $0.properties.generalCategory == .control ? " " : $0 }))
        guard flattened.contains(where: { !$0.isWhitespace }) else {
            throw SpecError(field, "is empty")
        }
        return flattened
    }

    /// What a file name says the callout shows: its title's ASCII letters and digits, up to 24, `-` between words.
    public var nameLabel: String {
        var label = ""
        var gap = false
        for scalar in title.unicodeScalars {
            if scalar.isASCII && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar)) {
                if gap && !label.isEmpty { label += "-" }
                label.unicodeScalars.append(scalar)
                gap = false
            } else {
                gap = true
            }
            if label.count >= 24 { break }
        }
        return label.isEmpty ? "untitled" : String(label.prefix(24)).lowercased()
    }
}

/// A callout to draw: the callout, its theme and its scale.
public struct CalloutRequest: Sendable, Hashable {
    public let callout: Callout
    public let theme: Theme
    public let scale: MarkerScale

    /// - Throws: `SpecError` for a scale markerpaint does not draw.
    public init(callout: Callout, theme: Theme, scale: MarkerScale) throws(SpecError) {
        self.callout = callout
        self.theme = theme
        self.scale = try MarkerRequest.checked(scale)
    }

    /// `callout-water-stop-night@2x`: the name before its hash.
    public var baseName: String { "callout-\(callout.nameLabel)-\(theme.name)@\(scale)x" }
}

/// A drawn pin or callout: its name, size, anchor and the hash of its bytes, which names it.
public struct PictureImage: Sendable, Hashable {
    public let baseName: String
    public let scale: MarkerScale
    public let width: Int
    public let height: Int
    /// The pin's tip or the callout's tail's tip, in pixels: the point that goes on the map.
    public let anchor: PixelPoint
    /// Lowercase hex SHA-256 of the file's bytes.
    public let sha256: String
    public let format: ImageFormat
    /// `callout-water-stop-day@2x-3f9a1c2b7d.png`.
    public let fileName: String

    /// The image of `bytes` in `format`, hashing them.
    public init(baseName: String, scale: MarkerScale, bytes: [UInt8], format: ImageFormat, width: Int, height: Int, anchor: PixelPoint) {
        self.baseName = baseName
        self.scale = scale
        self.width = width
        self.height = height
        self.anchor = anchor
        self.format = format
        sha256 = ContentHash.sha256Hex(bytes)
        fileName = "\(baseName)-\(sha256.prefix(ImageName.hashLength))\(format.fileExtension)"
    }
}
