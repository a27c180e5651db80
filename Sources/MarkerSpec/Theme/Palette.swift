/// The six colours of a marker, as in MARKER.md's theme table.
public struct Palette: Sendable, Hashable {
    public var pillFill: Colour
    public var pillBorder: Colour
    public var label: Colour
    public var dotFill: Colour
    public var dotBorder: Colour
    public var shadow: Colour

    public init(pillFill: Colour, pillBorder: Colour, label: Colour, dotFill: Colour, dotBorder: Colour, shadow: Colour) {
        self.pillFill = pillFill
        self.pillBorder = pillBorder
        self.label = label
        self.dotFill = dotFill
        self.dotBorder = dotBorder
        self.shadow = shadow
    }

    /// Night: the original app's palette.
    public static let night = Palette(
        pillFill: Colour(rgb: 35, 35, 35, alpha: 0.85),
        pillBorder: Colour(rgb: 255, 255, 255, alpha: 0.30),
        label: Colour(rgb: 255, 255, 255),
        dotFill: Colour(rgb: 35, 35, 35, alpha: 0.90),
        dotBorder: Colour(rgb: 255, 255, 255, alpha: 0.30),
        shadow: Colour(rgb: 0, 0, 0, alpha: 0.30)
    )

    /// Day: the inverse of night, for light base maps.
    public static let day = Palette(
        pillFill: Colour(rgb: 255, 255, 255, alpha: 0.92),
        pillBorder: Colour(rgb: 0, 0, 0, alpha: 0.18),
        label: Colour(rgb: 35, 35, 35),
        dotFill: Colour(rgb: 255, 255, 255, alpha: 0.95),
        dotBorder: Colour(rgb: 0, 0, 0, alpha: 0.18),
        shadow: Colour(rgb: 0, 0, 0, alpha: 0.25)
    )

    /// Whether the palette is a night one, its pill darker than mid-grey: pins and callouts, whose
    /// colours a palette does not hold, take their night look from it.
    public var isDark: Bool { 0.2126 * pillFill.red + 0.7152 * pillFill.green + 0.0722 * pillFill.blue < 0.5 }

    /// The six colours in MARKER.md's order.
    public var colours: [Colour] { [pillFill, pillBorder, label, dotFill, dotBorder, shadow] }
}
