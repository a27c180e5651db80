public import RoutePlacement
import RouteModel
public import MarkerSpec

/// `markers.geojson`: one Point feature per placed marker, with what a map needs to show it.
public enum MarkersGeoJSON {
    struct Collection: Encodable {
        let type = "FeatureCollection"
        let features: [Feature]
        /// GeoJSON's foreign members (RFC 7946 §6.1): what a client needs beside the features.
        let members: [String: JSONValue]

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: MemberKey.self)
            try container.encode(type, forKey: MemberKey("type"))
            try container.encode(features, forKey: MemberKey("features"))
            for (key, value) in members { try container.encode(value, forKey: MemberKey(key)) }
        }
    }

    struct MemberKey: CodingKey {
        let stringValue: String
        var intValue: Int? { nil }
        init(_ name: String) { stringValue = name }
        init?(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    struct Feature: Encodable {
        let type = "Feature"
        let geometry: Point
        let properties: Properties
    }

    struct Point: Encodable {
        let type = "Point"
        /// GeoJSON order: longitude, latitude.
        let coordinates: [Double]
    }

    struct Properties: Encodable {
        let kind: String
        let stage: Int
        let stage_name: String?
        let distance: Double
        let unit: String
        let label: String
        let zooms: [Int]
        let minzoom: Int
        /// From which zoom it shows on a map turned to any bearing.
        let minzoomTurned: Int
        /// The image to use for each theme, by theme name.
        let icon: [String: String]
        /// The style id of the sprite sheet holding that image, by theme name (batch output only).
        let sprite: [String: String]?

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(kind, forKey: .kind)
            try container.encode(stage, forKey: .stage)
            try container.encode(stage_name, forKey: .stage_name)  // null rather than absent: every feature has the same keys
            try container.encode(distance, forKey: .distance)
            try container.encode(unit, forKey: .unit)
            try container.encode(label, forKey: .label)
            try container.encode(zooms, forKey: .zooms)
            try container.encode(minzoom, forKey: .minzoom)
            try container.encode(minzoomTurned, forKey: .minzoomTurned)
            try container.encode(icon, forKey: .icon)
            try container.encodeIfPresent(sprite, forKey: .sprite)
        }

        enum CodingKeys: String, CodingKey {
            case kind, stage, stage_name, distance, unit, label, zooms, minzoom, minzoomTurned, icon, sprite
        }
    }

    /// What a pin's feature names in one theme: its pin's and its callout's images, and where sprites
    /// hold them, their sheets.
    public struct PinImages: Sendable {
        public var icon: String
        public var callout: String
        public var iconSheet: String?
        public var calloutSheet: String?

        public init(icon: String, callout: String, iconSheet: String? = nil, calloutSheet: String? = nil) {
            self.icon = icon
            self.callout = callout
            self.iconSheet = iconSheet
            self.calloutSheet = calloutSheet
        }
    }

    /// The document for `plan`; `icon` names the image (a sprite id or a URL) of a marker in a theme,
    /// and `sheet`, where given, the sprite sheet that holds it (every feature then has `sprite`);
    /// `pin` names a pin's images in a theme. Pins follow the markers, `kind` `pin`.
    /// `members` are added beside `features` (not `type` or `features`).
    /// - Throws: what `icon`, `sheet` or `pin` throws, or `MapError` if the document cannot be encoded.
    public static func document<Failure: Error>(
        plan: MarkerPlan, themes: [Theme], icon: (RouteMarker, Theme) throws(Failure) -> String,
        sheet: ((RouteMarker, Theme) throws(Failure) -> String)? = nil,
        pin: (RoutePin, Theme) throws(Failure) -> PinImages,
        members: [String: JSONValue] = [:]
    ) throws -> [UInt8] {
        guard members["type"] == nil, members["features"] == nil else {
            throw MapError(.encoding, "a GeoJSON member cannot replace type or features")
        }
        var features: [Feature] = []
        features.reserveCapacity(plan.markers.count)
        for routeMarker in plan.markers {
            var icons: [String: String] = [:]
            var sheets: [String: String]? = sheet == nil ? nil : [:]
            for theme in themes {
                icons[theme.name] = try icon(routeMarker, theme)
                if let sheet { sheets?[theme.name] = try sheet(routeMarker, theme) }
            }
            features.append(
                Feature(
                    geometry: Point(coordinates: [routeMarker.coordinate.longitude, routeMarker.coordinate.latitude]),
                    properties: Properties(
                        kind: routeMarker.kind.rawValue, stage: routeMarker.stage, stage_name: routeMarker.stageName,
                        distance: routeMarker.distance, unit: routeMarker.unit.rawValue, label: routeMarker.marker.label,
                        zooms: routeMarker.zooms, minzoom: routeMarker.minzoom, minzoomTurned: routeMarker.minzoomTurned, icon: icons, sprite: sheets
                    )
                ))
        }
        var pinFeatures: [JSONValue] = []
        pinFeatures.reserveCapacity(plan.pins.count)
        for routePin in plan.pins {
            var images: [(Theme, PinImages)] = []
            for theme in themes { images.append((theme, try pin(routePin, theme))) }
            pinFeatures.append(pinFeature(routePin, images: images))
        }
        do {
            return try Collection(features: features, members: members).jsonValue(pins: pinFeatures).bytes(Self.formatting)
        } catch {
            throw MapError(.encoding, "cannot encode markers.geojson: \(error)")
        }
    }

    /// Written as `JSONEncoder` with `[.sortedKeys, .withoutEscapingSlashes]` writes `Collection`.
    static let formatting = JSONValue.Formatting(withoutEscapingSlashes: true)
}

extension MarkersGeoJSON {
    /// A pin's feature: `kind` `pin`, its number among the route's (`pin`, what a style's callout
    /// layer selects by), its callout's title and text, its zooms, and its images by theme.
    static func pinFeature(_ routePin: RoutePin, images: [(Theme, PinImages)]) -> JSONValue {
        func byTheme(_ value: (PinImages) -> String?) -> JSONValue {
            .object(images.compactMap { theme, names in value(names).map { .init(theme.name, .string($0)) } })
        }
        var properties: [JSONValue.Member] = [
            .init("callout", byTheme(\.callout))
        ]
        if images.contains(where: { $0.1.calloutSheet != nil }) { properties.append(.init("calloutSprite", byTheme(\.calloutSheet))) }
        properties += [
            .init("description", .optional(routePin.callout.lines.first)),
            .init("icon", byTheme(\.icon)),
            .init("kind", "pin"),
            .init("minzoom", .integer(routePin.minzoom)),
            .init("minzoomTurned", .integer(routePin.minzoomTurned)),
            .init("pin", .integer(routePin.number)),
        ]
        if images.contains(where: { $0.1.iconSheet != nil }) { properties.append(.init("sprite", byTheme(\.iconSheet))) }
        properties += [
            .init("title", .string(routePin.callout.title)),
            .init("zooms", .array(routePin.zooms.map(JSONValue.integer))),
        ]
        return .object([
            .init(
                "geometry",
                .object([
                    .init("coordinates", .array([.number(routePin.coordinate.longitude), .number(routePin.coordinate.latitude)])),
                    .init("type", "Point"),
                ])),
            .init("properties", .object(properties)),
            .init("type", "Feature"),
        ])
    }
}

extension MarkersGeoJSON.Collection {
    /// What `encode(to:)` encodes, with `pins`' features after the markers'.
    func jsonValue(pins: [JSONValue] = []) -> JSONValue {
        .object(
            [.init("type", .string(type)), .init("features", .array(features.map(\.jsonValue) + pins))]
                + members.map { .init($0.key, $0.value) })
    }
}

extension MarkersGeoJSON.Feature {
    /// Members in key order, which the writer then need not sort.
    var jsonValue: JSONValue {
        .object([
            .init(
                "geometry",
                .object([.init("coordinates", .array(geometry.coordinates.map(JSONValue.number))), .init("type", .string(geometry.type))])),
            .init("properties", properties.jsonValue),
            .init("type", .string(type)),
        ])
    }
}

extension MarkersGeoJSON.Properties {
    /// Members in key order, which the writer then need not sort.
    var jsonValue: JSONValue {
        var members: [JSONValue.Member] = [
            .init("distance", .number(distance)), .init("icon", .object(icon.map { .init($0.key, .string($0.value)) })),
            .init("kind", .string(kind)), .init("label", .string(label)), .init("minzoom", .integer(minzoom)),
            .init("minzoomTurned", .integer(minzoomTurned)),
        ]
        if let sprite { members.append(.init("sprite", .object(sprite.map { .init($0.key, .string($0.value)) }))) }
        members += [
            .init("stage", .integer(stage)), .init("stage_name", .optional(stage_name)), .init("unit", .string(unit)),
            .init("zooms", .array(zooms.map(JSONValue.integer))),
        ]
        return .object(members)
    }
}
