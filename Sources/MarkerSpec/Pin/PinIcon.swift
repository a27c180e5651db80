/// The icons a pin carries built in, each drawn as a vector path in white.
public enum PinIcon: String, Sendable, Hashable, CaseIterable {
    case water, food, cafe, summit, viewpoint, camp, shelter, danger, info, parking, toilets, repair

    /// The choices as a message lists them: `water, food, …, repair`.
    public static let choices = allCases.map(\.rawValue).joined(separator: ", ")

    /// The icon called `name`.
    /// - Throws: `SpecError` naming the choices, for any other name.
    public init(named name: String) throws(SpecError) {
        guard let icon = PinIcon(rawValue: name) else {
            throw SpecError(.icon, "\(SpecError.quoted(name)) is not one of \(Self.choices)")
        }
        self = icon
    }

    /// The pin's fill for the icon's category (MARKER.md): water blue, food and drink orange,
    /// summits brown, camping and shelter green, danger red, information blue-grey; the rest neutral.
    public var categoryColour: Colour {
        switch self {
        case .water: Colour(rgb: 0x1E, 0x88, 0xE5)
        case .food, .cafe: Colour(rgb: 0xF4, 0x51, 0x1E)
        case .summit: Colour(rgb: 0x6D, 0x4C, 0x41)
        case .camp, .shelter: Colour(rgb: 0x2E, 0x7D, 0x32)
        case .danger: Colour(rgb: 0xE5, 0x39, 0x35)
        case .info: Colour(rgb: 0x54, 0x6E, 0x7A)
        case .viewpoint, .parking, .toilets, .repair: Pin.neutralColour
        }
    }
}

extension PinIcon {
    /// The built-in icon a route file's symbol names: Garmin's `<sym>` names as GPX planners write
    /// them ("Drinking Water", "Summit"), and Maki's names as simplestyle's `marker-symbol` gives them
    /// ("drinking-water", "mountain"); case and spaces, dashes or underscores do not matter. Nil for
    /// a symbol with no built-in icon.
    public init?(symbol: String) {
        let key = String(symbol.lowercased().unicodeScalars.filter { $0.properties.isAlphabetic })
        guard let icon = Self.symbols[key] else { return nil }
        self = icon
    }

    /// Garmin's and Maki's names, lowercased with all but letters dropped.
    private static let symbols: [String: PinIcon] = {
        var table: [String: PinIcon] = [:]
        let names: [PinIcon: [String]] = [
            .water: ["drinkingwater", "water", "watersource", "fountain", "spring", "waterpoint"],
            .food: ["restaurant", "food", "fastfood", "picnicarea", "picnic", "pizza", "grocery", "shop"],
            .cafe: ["cafe", "coffee", "bar", "beer", "drinks"],
            .summit: ["summit", "mountain", "peak", "mountains"],
            .viewpoint: ["scenicarea", "viewpoint", "lookout", "overlook", "observationpoint", "attraction"],
            .camp: ["campground", "campsite", "camp", "camping", "rvpark"],
            .shelter: ["shelter", "lodging", "lodge", "hut", "hotel", "alpinehut", "home", "building"],
            .danger: ["dangerarea", "danger", "skullandcrossbones", "warning", "caution", "hazard"],
            .info: ["information", "info", "visitorcenter", "informationcenter"],
            .parking: ["parkingarea", "parking", "car", "parkinggarage"],
            .toilets: ["restroom", "toilet", "toilets", "wc"],
            .repair: ["bikeshop", "bicycle", "repair", "bikerepair", "tool", "wrench"],
        ]
        for (icon, aliases) in names { for alias in aliases { table[alias] = icon } }
        return table
    }()
}
