import MarkerPins
public import MarkerSpec
public import RoutePlacement

/// The symbol layers that show a route's pins, and the callout of the one selected, from the
/// `kind: "pin"` features of `markers.geojson`.
///
/// Styles cannot select on tap by themselves (feature state reaches paint, not layout or filters,
/// and MapLibre Native has none on every platform), so the callout layer selects by its filter:
/// `["==", ["get", "pin"], 0]` shows none, since pins count from 1; an app that sets it to the
/// tapped feature's `pin` shows that callout, and sets it back to 0 to close it.
public enum PinLayer {
    /// The id of a theme's pin layer: `markerpaint-pins-night`.
    public static func pinLayerID(_ theme: Theme) -> String { "markerpaint-pins-\(theme.name)" }
    /// The id of a theme's callout layer: `markerpaint-callouts-night`.
    public static func calloutLayerID(_ theme: Theme) -> String { "markerpaint-callouts-\(theme.name)" }

    /// Points from a pin's image's bottom edge up to its tip.
    public static let pinTipAboveBottom = PinMetrics.tipAboveBottom
    /// Points from a callout's image's bottom edge up to its tail's tip.
    public static let calloutTipAboveBottom = CalloutMetrics.tipAboveBottom
    /// Points between the point and a callout's tail's tip: the pin's height and 2 to spare, so an
    /// open callout stands on its pin's head and leaves the pin in sight.
    public static let calloutLift = -Pin.footprint.bounds.top + 2

    /// The callout layer's filter that selects pin `number` (0: none).
    public static func selecting(_ number: Int) -> JSONValue { ["==", ["get", "pin"], .integer(number)] }

    /// A theme's pin layer: each pin's tip on its point, from its `minzoom` (turned: `minzoomTurned`) on.
    public static func pinLayer(
        theme: Theme, visibility: MarkerPlan.Visibility = .fit, rotation: ScreenPlacement.Rotation = .northUp, spriteIDs: Bool = false,
        visible: Bool = true
    ) -> JSONValue {
        let zooms: JSONValue =
            visibility == .table ? true : StyleLayer.zoomFilter(visibility: visibility, rotation: rotation)
        return [
            "id": .string(pinLayerID(theme)),
            "type": "symbol",
            "source": .string(StyleLayer.sourceID),
            "filter": ["all", ["==", ["get", "kind"], "pin"], zooms],
            "layout": [
                "visibility": visible ? "visible" : "none",
                "icon-image": image(theme: theme, name: "icon", sheet: "sprite", spriteIDs: spriteIDs),
                "icon-anchor": "bottom",
                "icon-offset": [0, .number(pinTipAboveBottom)],
                // Placement keeps pins clear of each other and of the markers.
                "icon-allow-overlap": true,
                "icon-ignore-placement": true,
            ],
        ]
    }

    /// A theme's callout layer: the selected pin's callout (none until an app sets the filter with
    /// `selecting`), its tail's tip `calloutLift` above the point, over everything beneath it.
    public static func calloutLayer(theme: Theme, spriteIDs: Bool = false, visible: Bool = true) -> JSONValue {
        [
            "id": .string(calloutLayerID(theme)),
            "type": "symbol",
            "source": .string(StyleLayer.sourceID),
            "filter": selecting(0),
            "layout": [
                "visibility": visible ? "visible" : "none",
                "icon-image": image(theme: theme, name: "callout", sheet: "calloutSprite", spriteIDs: spriteIDs),
                "icon-anchor": "bottom",
                "icon-offset": [0, .number(calloutTipAboveBottom - calloutLift)],
                "icon-allow-overlap": true,
                "icon-ignore-placement": true,
            ],
        ]
    }

    /// The image a layer shows: the feature's `name` for the theme, prefixed with its sheet's id.
    private static func image(theme: Theme, name: String, sheet: String, spriteIDs: Bool) -> JSONValue {
        let icon: JSONValue = ["get", .string(theme.name), ["get", .string(name)]]
        return spriteIDs ? ["concat", ["get", .string(theme.name), ["get", .string(sheet)]], ":", icon] : icon
    }
}
