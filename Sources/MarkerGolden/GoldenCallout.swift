import MarkerFiles
import MarkerSpec
import SystemPackage

/// One entry of `Goldens/cases.json`'s `callouts`: a callout to draw and compare with its golden image.
public struct GoldenCallout: Sendable, Codable, Hashable {
    public var title: String
    public var lines: [String]?
    public var badge: String?
    /// A CSS colour for the badge; absent for the default green.
    public var badgeColor: String?
    /// A photo file, relative to the goldens folder.
    public var photo: String?
    /// `day` or `night`.
    public var theme: String
    /// Pixels per point: 1, 1.5, 2, 3 or 4.
    public var scale: Double

    public init(
        title: String, lines: [String]? = nil, badge: String? = nil, badgeColor: String? = nil, photo: String? = nil, theme: String, scale: Double
    ) {
        self.title = title
        self.lines = lines
        self.badge = badge
        self.badgeColor = badgeColor
        self.photo = photo
        self.theme = theme
        self.scale = scale
    }

    /// The callout request this case draws; a photo is read relative to `directory`.
    func request(relativeTo directory: FilePath) throws(GoldenError) -> CalloutRequest {
        var photoBytes: [UInt8]? = nil
        if let photo {
            do { photoBytes = try directory.appending(photo).readAll(limit: 10 << 20) } catch { throw GoldenError("photo \(photo): \(error.message)") }
        }
        guard let resolvedTheme = Theme.named(theme) else { throw GoldenError("theme \"\(theme)\" is not day or night") }
        guard let pixelScale = MarkerScale(exactly: scale) else { throw GoldenError("scale must be \(MarkerScale.choices) (got \(scale))") }
        do throws(SpecError) {
            var madeBadge: Callout.Badge? = nil
            if let badge { madeBadge = try Callout.Badge(text: badge, colour: try badgeColor.map { (text: String) throws(SpecError) in try Colour(css: text) }) }
            let callout = try Callout(title: title, lines: lines ?? [], badge: madeBadge, photo: photoBytes)
            return try CalloutRequest(callout: callout, theme: resolvedTheme, scale: pixelScale)
        } catch {
            throw GoldenError(error.description)
        }
    }
}
