public import MarkerSpec

/// One entry of `Goldens/cases.json`'s `callouts`: a callout to draw and compare with its golden image.
public struct GoldenCallout: Sendable, Codable, Hashable {
    public var title: String
    public var lines: [String]?
    public var badge: String?
    /// A CSS colour for the badge; absent for the default green.
    public var badgeColor: String?
    /// `day` or `night`.
    public var theme: String
    /// Pixels per point: 1, 1.5, 2, 3 or 4.
    public var scale: Double

    public init(title: String, lines: [String]? = nil, badge: String? = nil, badgeColor: String? = nil, theme: String, scale: Double) {
        self.title = title
        self.lines = lines
        self.badge = badge
        self.badgeColor = badgeColor
        self.theme = theme
        self.scale = scale
    }

    /// The callout request this case draws.
    func request() throws(GoldenError) -> CalloutRequest {
        guard let resolvedTheme = Theme.named(theme) else { throw GoldenError("theme \"\(theme)\" is not day or night") }
        guard let pixelScale = MarkerScale(exactly: scale) else { throw GoldenError("scale must be \(MarkerScale.choices) (got \(scale))") }
        do throws(SpecError) {
            var madeBadge: Callout.Badge? = nil
            if let badge { madeBadge = try Callout.Badge(text: badge, colour: try badgeColor.map { (text: String) throws(SpecError) in try Colour(css: text) }) }
            return try CalloutRequest(callout: try Callout(title: title, lines: lines ?? [], badge: madeBadge), theme: resolvedTheme, scale: pixelScale)
        } catch {
            throw GoldenError(error.description)
        }
    }
}
