/// A named palette: `day`, `night`, or one a user supplied in a file.
public struct Theme: Sendable, Hashable {
    /// The name that goes into image file names; lowercase letters, digits and `-` only.
    public let name: String
    public let palette: Palette
    /// Every colour of the palette spelled out, for reuse keys: spelled once, not per image.
    let paletteKey: String

    public static let day = Theme(uncheckedName: "day", palette: .day)
    public static let night = Theme(uncheckedName: "night", palette: .night)

    /// The built-in themes, by name.
    public static let builtIn = [day, night]

    private init(uncheckedName: String, palette: Palette) {
        self.name = uncheckedName
        self.palette = palette
        paletteKey = Self.key(of: palette)
    }

    /// A user theme; its name must be safe in a file name and not shadow a built-in theme.
    public init(name: String, palette: Palette) throws(SpecError) {
        // ASCII only: a letter from another script would make a name that means nothing to a map SDK.
        let allowed = { (byte: UInt8) in (0x61...0x7A).contains(byte) || (0x30...0x39).contains(byte) || byte == UInt8(ascii: "-") }
        guard (1...32).contains(name.utf8.count), name.utf8.allSatisfy(allowed), name.first != "-" else {
            throw SpecError(.palette, "name \"\(name)\" must be 1 to 32 lowercase letters, digits or '-'")
        }
        guard Self.named(name) == nil else {
            throw SpecError(.palette, "name \"\(name)\" is taken by a built-in theme; choose another")
        }
        self.name = name
        self.palette = palette
        paletteKey = Self.key(of: palette)
    }

    private static func key(of palette: Palette) -> String {
        palette.colours.map { "\($0.red),\($0.green),\($0.blue),\($0.alpha)" }.joined(separator: ";")
    }

    /// Name and palette; the key only spells the palette.
    public static func == (lhs: Theme, rhs: Theme) -> Bool { lhs.name == rhs.name && lhs.palette == rhs.palette }

    /// The name alone: equal themes have equal names, and a batch looks themes up thousands of
    /// times, where hashing the palette's 24 numbers each time showed in profiles.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(name)
    }

    /// A built-in theme by name.
    public static func named(_ name: String) -> Theme? {
        builtIn.first { $0.name == name }
    }
}
