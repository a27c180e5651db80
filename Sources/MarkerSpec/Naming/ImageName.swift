/// A content-hashed image name, made and parsed.
public struct ImageName: Sendable, Hashable {
    /// How many hex digits of the SHA-256 a name carries.
    public static let hashLength = 10

    public let request: MarkerRequest
    public let hashPrefix: String

    public init(request: MarkerRequest, sha256: String) {
        self.request = request
        self.hashPrefix = String(sha256.prefix(Self.hashLength))
    }

    public var stem: String { "\(request.baseName)-\(hashPrefix)" }
    public var fileName: String { stem + ImageFormat.png.fileExtension }

    /// The file name in `format`: `end-123km-night@2x-3f9a1c2b7d.svg`.
    public func fileName(_ format: ImageFormat) -> String { stem + format.fileExtension }

    /// Reads a name back into what to draw, e.g. `end-123km-night@2x-3f9a1c2b7d` (with or without
    /// `.png`, `.svg` or `.pdf`); only built-in themes can be read, since a custom palette's colours are not in its name.
    /// Only the canonical spelling reads (`7.5km`, not `07.50km`), so one image has one name.
    public static func parse(_ name: String) -> ImageName? {
        let stem = ImageFormat(endingFileName: name).map { name.dropLast($0.fileExtension.utf8.count) } ?? Substring(name)
        // <kind>-<number><unit>-<theme>@<scale>x-<hash>, the theme possibly holding dashes itself.
        guard let hashDash = stem.lastIndex(of: "-"), let at = stem[..<hashDash].lastIndex(of: "@") else { return nil }
        let hash = stem[stem.index(after: hashDash)...]
        let scaleText = stem[stem.index(after: at)..<hashDash]
        guard isHashPrefix(hash), scaleText.hasSuffix("x"), let scale = try? MarkerScale(scaleText.dropLast()) else { return nil }
        guard let (marker, theme) = picture(stem[..<at]), let request = try? MarkerRequest(marker: marker, theme: theme, scale: scale)
        else { return nil }
        return ImageName(request: request, sha256: String(hash))
    }

    /// Whether `text` is a hash prefix as names carry it: `hashLength` lowercase hex digits.
    public static func isHashPrefix(_ text: Substring) -> Bool {
        // Compared as ASCII bytes: a digit from another script, or a combining mark, is not a name of ours.
        text.utf8.count == hashLength && text.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }
    }

    /// The marker and theme that `<kind>-<label>-<theme>` spells, canonically, or nil.
    static func picture(_ described: Substring) -> (Marker, Theme)? {
        guard let kindDash = described.firstIndex(of: "-"),
            let kind = Marker.Kind(rawValue: String(described[..<kindDash]))
        else { return nil }
        let rest = described[described.index(after: kindDash)...]
        guard let labelDash = rest.firstIndex(of: "-") else { return nil }
        let label = rest[..<labelDash]
        let themeName = rest[rest.index(after: labelDash)...]
        guard let theme = Theme.named(String(themeName)), let marker = Self.marker(kind: kind, label: label) else { return nil }
        return (marker, theme)
    }

    /// What a combined marker's parts can be.
    private static let partKinds: [Marker.Kind] = Marker.Kind.allCases.filter { $0 != .combined }

    /// The marker a name's label spells, canonically: `7.5km`, or for a combined marker `start0km_end8.6km`
    /// or `distance3km_distance17km`.
    private static func marker(kind: Marker.Kind, label: Substring) -> Marker? {
        guard kind == .combined else {
            guard let (number, unit) = reading(label), let part = Marker.Part(kind: kind, spelled: number) else { return nil }
            return try? Marker(part, unit: unit)
        }
        var parts: [Marker.Part] = []
        var units: Set<Marker.Unit> = []
        for spelled in label.split(separator: "_", omittingEmptySubsequences: false).prefix(Marker.maximumParts + 1) {
            // No part's kind is the start of another's name, so the first that matches is the one.
            guard let partKind = Self.partKinds.first(where: { spelled.hasPrefix($0.rawValue) }) else { return nil }
            guard let (number, unit) = reading(spelled.dropFirst(partKind.rawValue.utf8.count)),
                let part = Marker.Part(kind: partKind, spelled: number)
            else { return nil }
            parts.append(part)
            units.insert(unit)
        }
        guard units.count == 1, let unit = units.first, let marker = try? Marker(combining: parts, unit: unit) else { return nil }
        return marker
    }

    /// A label's number (checked by `Marker.Part(kind:spelled:)`) and unit, the longest unit that
    /// ends it (`7.5nmi` is nautical miles, not `7.5n` miles).
    private static func reading(_ label: Substring) -> (number: Substring, unit: Marker.Unit)? {
        let units = Marker.Unit.allCases.sorted { $0.rawValue.utf8.count > $1.rawValue.utf8.count }
        guard let unit = units.first(where: { label.hasSuffix($0.rawValue) && label.utf8.count > $0.rawValue.utf8.count }) else { return nil }
        return (label.dropLast(unit.rawValue.count), unit)
    }
}
