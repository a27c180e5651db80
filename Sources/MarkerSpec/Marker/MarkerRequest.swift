/// One image to draw: a marker, its theme and its pixel scale.
public struct MarkerRequest: Sendable, Hashable {
    /// Every pixel scale drawn: iOS's @1x–@3x, and 1.5 and 4 for Android's hdpi and xxxhdpi.
    public static let scales = MarkerScale.all

    public let marker: Marker
    public let theme: Theme
    public let scale: MarkerScale

    public init(marker: Marker, theme: Theme, scale: MarkerScale) throws(SpecError) {
        self.marker = marker
        self.theme = theme
        self.scale = try Self.checked(scale)
    }

    /// `scale`, if it is one of `scales`: every picture markerpaint draws is held to them.
    public static func checked(_ scale: MarkerScale) throws(SpecError) -> MarkerScale {
        guard scales.contains(scale) else { throw SpecError(.scale, "must be \(MarkerScale.choices) (got \(scale))") }
        return scale
    }

    /// The readable part of the file name: `end-123km-night@2x`.
    public var baseName: String {
        "\(marker.kind.rawValue)-\(marker.label)-\(theme.name)@\(scale)x"
    }

    /// What is drawn, exactly: the readable name plus the palette's colours (a custom palette's
    /// name alone could be reused for other colours). Images are reused only under the same key.
    public var reuseKey: String {
        "\(baseName)|\(theme.paletteKey)"
    }
}
