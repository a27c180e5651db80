import MarkerRender
public import RoutePlacement
public import MarkerSpec

/// A MapLibre/Mapbox symbol layer that shows the markers of `markers.geojson` at the zooms their plan gives them.
public enum StyleLayer {
    /// The source id the layer expects `markers.geojson` under.
    public static let sourceID = "markerpaint-markers"

    /// The filter for markers placed on the map (`MarkerPlan.Visibility.fit`): each from its
    /// `minzoom` on. Map SDKs evaluate zoom in filters at the tile's integer zoom, which is what
    /// placement checks; between integer zooms pictures only move further apart.
    public static let minzoomFilter: JSONValue = [">=", ["zoom"], ["get", "minzoom"]]
    /// The filter for a map that turns (course-up): each marker from its `minzoomTurned` on, from
    /// which it meets no other at any bearing.
    public static let turnedFilter: JSONValue = [">=", ["zoom"], ["get", "minzoomTurned"]]

    /// The filter that shows a plan's markers at its zooms, on a map that keeps north up or turns.
    public static func zoomFilter(
        visibility: MarkerPlan.Visibility, interval: MarkerInterval = .one, rotation: ScreenPlacement.Rotation = .northUp
    ) -> JSONValue {
        switch (visibility, rotation) {
        case (.fit, .northUp): minzoomFilter
        case (.fit, .courseUp): turnedFilter
        case (.table, _): tableFilter(interval: interval)
        }
    }

    /// The filter of the original app's table: start and end always; a distance (or countdown) marker where its distance is a
    /// multiple of the zoom's interval, scaled by the markers' `interval`. Built from `ZoomTable`, so the style and
    /// the `zooms` property cannot disagree. Map SDKs evaluate zoom in filters at integer zooms,
    /// which is what the table means.
    ///
    /// With whole intervals the distances are whole numbers and compared as they are; with tenths
    /// they are compared in tenths, rounded (`0.3 % 0.1` is not 0 in floating point, `3 % 1` is).
    public static func tableFilter(interval: MarkerInterval = .one) -> JSONValue {
        let perStep = interval.isWhole ? interval.tenths / 10 : interval.tenths
        var step: [JSONValue] = ["step", ["zoom"], 0]
        var previous: Int? = nil
        for zoom in ZoomTable.zooms {
            let steps = ZoomTable.interval(forZoom: zoom)
            if steps != previous {
                step += [.integer(zoom), .integer((steps ?? 0) * perStep)]
                previous = steps
            }
        }
        let distance: JSONValue = interval.isWhole ? ["get", "distance"] : ["round", ["*", ["get", "distance"], 10]]
        return [
            "any",
            ["all", ["!=", ["get", "kind"], "distance"], ["!=", ["get", "kind"], "countdown"]],
            [
                "let", "interval", .array(step),
                ["all", [">", ["var", "interval"], 0], ["==", ["%", distance, ["var", "interval"]], 0]],
            ],
        ]
    }

    /// The filter of a theme's marker layer: every feature but pins, at the plan's zooms.
    public static func markerFilter(
        visibility: MarkerPlan.Visibility, interval: MarkerInterval = .one, rotation: ScreenPlacement.Rotation = .northUp
    ) -> JSONValue {
        ["all", ["!=", ["get", "kind"], "pin"], zoomFilter(visibility: visibility, interval: interval, rotation: rotation)]
    }

    /// The layer for one theme: the dot's centre exactly on the point at every pixel ratio,
    /// since every image has its anchor centred and `MarkerGeometry.anchorAboveBottom` points up.
    ///
    /// Icons are the features' `icon` ids as they are (one sprite, or images added by the app), or
    /// if `spriteIDs`, prefixed with the id of the sheet holding them (`markerpaint-night:<icon>`),
    /// as a style whose `sprite` is an array names them. A hidden layer is one a theme switch shows.
    public static func layer(
        theme: Theme, visibility: MarkerPlan.Visibility = .fit, interval: MarkerInterval = .one, rotation: ScreenPlacement.Rotation = .northUp,
        spriteIDs: Bool = false, visible: Bool = true
    ) -> JSONValue {
        let icon: JSONValue = ["get", .string(theme.name), ["get", "icon"]]
        return [
            "id": .string("markerpaint-markers-\(theme.name)"),
            "type": "symbol",
            "source": .string(sourceID),
            "filter": markerFilter(visibility: visibility, interval: interval, rotation: rotation),
            "layout": [
                "visibility": visible ? "visible" : "none",
                "icon-image": spriteIDs ? ["concat", ["get", .string(theme.name), ["get", "sprite"]], ":", icon] : icon,
                "icon-anchor": "bottom",
                "icon-offset": [0, .number(MarkerGeometry.anchorAboveBottom)],
                // Placement already keeps the pictures apart; the map's own collision would hide some
                // it placed. With the app's table they overlap where the table says so.
                "icon-allow-overlap": true,
                "icon-ignore-placement": true,
                // Start and end above distance markers where they meet.
                "symbol-sort-key": ["match", ["get", "kind"], ["distance", "countdown"], 0, 1],
            ],
        ]
    }

    /// The layer for `theme` as JSON.
    public static func json(
        theme: Theme, visibility: MarkerPlan.Visibility = .fit, interval: MarkerInterval = .one, rotation: ScreenPlacement.Rotation = .northUp
    ) throws(MapError) -> [UInt8] {
        try layer(theme: theme, visibility: visibility, interval: interval, rotation: rotation).styleBytes()
    }
}
