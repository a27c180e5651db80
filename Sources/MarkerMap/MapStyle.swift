public import RoutePlacement
public import MarkerSpec

/// `style.json`: a complete MapLibre style for a route's markers, to load as it is or to merge into
/// a basemap's: the `sprite` array naming every sheet (the basemap's own sprite stays as it is), the
/// GeoJSON source and one symbol layer per theme, the first shown.
public enum MapStyle {
    /// One sprite sheet as the style names it.
    public struct Sheet: Sendable, Equatable {
        /// The style id icons on it are prefixed with, `markerpaint-night` or `markerpaint-night-2`.
        public var id: String
        /// The sheet's file name without ratio or extension, `sprite-night-<hash>`.
        public var name: String

        public init(id: String, name: String) {
            self.id = id
            self.name = name
        }
    }

    /// The file name the style is written under.
    public static let fileName = "style.json"

    /// The style for `themes` and their `sheets`, every URL under `baseURL` (which ends in `/`):
    /// map SDKs load a style's URLs as they are, not relative to the style's own.
    public static func style(
        themes: [Theme], visibility: MarkerPlan.Visibility = .fit, interval: MarkerInterval = .one, rotation: ScreenPlacement.Rotation = .northUp,
        pins: Bool = false, sheets: [Sheet], baseURL: String
    ) -> JSONValue {
        [
            "version": 8,
            "name": "markerpaint",
            "sprite": .array(sprites(sheets, baseURL: baseURL)),
            "sources": .object(sources(baseURL: baseURL)),
            "layers": .array(layers(themes: themes, visibility: visibility, interval: interval, rotation: rotation, pins: pins)),
        ]
    }

    /// The style's `sprite` entries: every sheet, by id.
    public static func sprites(_ sheets: [Sheet], baseURL: String) -> [JSONValue] {
        sheets.map { ["id": .string($0.id), "url": .string(baseURL + $0.name)] }
    }

    /// The style's source: `markers.geojson`.
    public static func sources(baseURL: String) -> [String: JSONValue] {
        [StyleLayer.sourceID: ["type": "geojson", "data": .string(baseURL + "markers.geojson")]]
    }

    /// One symbol layer per theme for the markers, the first shown; with `pins`, then one per theme
    /// for the pins and last one per theme for the selected pin's callout (`PinLayer`), over everything.
    public static func layers(
        themes: [Theme], visibility: MarkerPlan.Visibility = .fit, interval: MarkerInterval = .one, rotation: ScreenPlacement.Rotation = .northUp,
        pins: Bool = false, spriteIDs: Bool = true
    ) -> [JSONValue] {
        var layers = themes.enumerated().map { index, theme in
            StyleLayer.layer(theme: theme, visibility: visibility, interval: interval, rotation: rotation, spriteIDs: spriteIDs, visible: index == 0)
        }
        if pins { layers += pinLayers(themes: themes, visibility: visibility, rotation: rotation, spriteIDs: spriteIDs) }
        return layers
    }

    /// One pin layer per theme, then one callout layer per theme (`PinLayer`), the first theme's shown.
    public static func pinLayers(
        themes: [Theme], visibility: MarkerPlan.Visibility = .fit, rotation: ScreenPlacement.Rotation = .northUp, spriteIDs: Bool = true
    ) -> [JSONValue] {
        themes.enumerated().map { index, theme in
            PinLayer.pinLayer(theme: theme, visibility: visibility, rotation: rotation, spriteIDs: spriteIDs, visible: index == 0)
        }
            + themes.enumerated().map { index, theme in PinLayer.calloutLayer(theme: theme, spriteIDs: spriteIDs, visible: index == 0) }
    }

    /// `text` as a base URL for the style: an absolute `http`, `https` or `file` URL with no query or
    /// fragment and nothing a JSON string or a URL would have to escape, given a trailing `/` if it
    /// has none.
    public static func baseURL(checking text: String) throws(MapError) -> String {
        let schemes = ["http://", "https://", "file:///"]
        guard text.utf8.count <= 2048, let scheme = schemes.first(where: text.hasPrefix), text.utf8.count > scheme.utf8.count else {
            throw MapError(
                .badChoice, "the base URL must be an http://, https:// or file:/// URL of at most 2048 characters, not \(text.debugDescription)")
        }
        let forbidden = Set(" \"<>\\^`{|}?#".utf8)
        guard text.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F && !forbidden.contains($0) }) else {
            throw MapError(
                .badChoice,
                "the base URL must be plain ASCII with no spaces, quotes, query or fragment (percent-encode the rest), not \(text.debugDescription)")
        }
        return text.hasSuffix("/") ? text : text + "/"
    }

    /// The style as JSON.
    public static func json(
        themes: [Theme], visibility: MarkerPlan.Visibility = .fit, interval: MarkerInterval = .one, rotation: ScreenPlacement.Rotation = .northUp,
        pins: Bool = false, sheets: [Sheet], baseURL: String
    ) throws(MapError) -> [UInt8] {
        try style(themes: themes, visibility: visibility, interval: interval, rotation: rotation, pins: pins, sheets: sheets, baseURL: baseURL)
            .styleBytes()
    }
}
