public import RouteModel
public import RoutePlacement
public import OfflineCorridor
public import MarkerSpec

/// `index.html`: the route and its markers on a page that opens offline from the output folder,
/// with a theme switch and the zoom it shows (see `PreviewTemplate`).
public enum PreviewPage {
    /// The file name the page is written under.
    public static let fileName = "index.html"
    /// The most route points the page draws: longer routes are thinned evenly, which a line
    /// drawn at screen resolution does not show, and the page stays a few megabytes at most.
    public static let maximumPoints = 50_000

    /// One picture of a marker, at one scale, as the page draws it.
    public struct Picture: Sendable, Encodable, Equatable {
        public var file: String
        public var scale: Double
        public var width: Int
        public var height: Int
        public var anchorX: Double
        public var anchorY: Double

        public init(file: String, scale: MarkerScale, width: Int, height: Int, anchor: PixelPoint) {
            self.file = file
            self.scale = scale.factor
            self.width = width
            self.height = height
            self.anchorX = anchor.x
            self.anchorY = anchor.y
        }
    }

    /// The offline pack as the page reads it: a raster PMTiles pack is drawn under the route.
    public struct Basemap: Sendable, Equatable {
        /// Its path from the page, `offline/basemap-….pmtiles`.
        public var file: String
        /// `pmtiles` or `mbtiles`.
        public var format: String
        public var isRaster: Bool

        public init(file: String, format: String, isRaster: Bool) {
            self.file = file
            self.format = format
            self.isRaster = isRaster
        }
    }

    struct Payload {
        let title: String
        let themes: [String]
        /// By icon id, then by scale ("1", "2").
        let icons: [String: [String: Picture]]
        let markers: [Feature]
        /// The route's waypoints, each a pin with its callout.
        var pins: [PinFeature] = []
        /// Per stage, [longitude, latitude] pairs, to a millionth of a degree (about 0.1 m).
        let stages: [[[Double]]]
        /// The offline pack: its corridor and, per map zoom, its tiles as runs `[y, first x, last x]`.
        var offline: JSONValue? = nil
    }

    /// One marker as the page draws it.
    struct Feature: Encodable {
        let lon: Double
        let lat: Double
        let zooms: [Int]
        /// `minzoomTurned`: from which zoom it shows on a turned map.
        let turned: Int
        let top: Int
        let label: String
        let icon: [String: String]
    }

    /// One pin as the page draws it, and the callout a tap on it opens.
    struct PinFeature {
        let pin: Int
        let lon: Double
        let lat: Double
        let zooms: [Int]
        let turned: Int
        let title: String
        let icon: [String: String]
        let callout: [String: String]
    }

    /// The page for `plan` over `route` in `themes`; `icon` names a marker's picture in a theme,
    /// `pin` a pin's and its callout's, and `pictures` gives each picture's PNGs by scale (the page
    /// takes @2x on a high-density screen and 1x elsewhere, or the largest drawn).
    public static func html<Failure: Error>(
        route: Route, plan: MarkerPlan, themes: [Theme], unit: Marker.Unit, mark: Label.DecimalMark = .point,
        icon: (RouteMarker, Theme) throws(Failure) -> String,
        pin: (RoutePin, Theme) throws(Failure) -> (icon: String, callout: String),
        pictures: [String: [MarkerScale: Picture]], offline: OfflinePack? = nil,
        basemap: Basemap? = nil
    ) throws -> [UInt8] {
        var markers: [Feature] = []
        markers.reserveCapacity(plan.markers.count)
        var icons: [String: [String: Picture]] = [:]
        for routeMarker in plan.markers {
            var ids: [String: String] = [:]
            for theme in themes {
                let id = try icon(routeMarker, theme)
                ids[theme.name] = id
                guard let scales = pictures[id], !scales.isEmpty else {
                    throw MapError(.image, "no picture of \(id) for the preview")
                }
                icons[id] = Dictionary(uniqueKeysWithValues: scales.map { ($0.key.description, $0.value) })
            }
            markers.append(
                Feature(
                    lon: routeMarker.coordinate.longitude, lat: routeMarker.coordinate.latitude, zooms: routeMarker.zooms, turned: routeMarker.minzoomTurned,
                    top: routeMarker.kind == .distance || routeMarker.kind == .countdown ? 0 : 1, label: routeMarker.marker.label, icon: ids))
        }
        var pins: [PinFeature] = []
        for routePin in plan.pins {
            var icon: [String: String] = [:]
            var callout: [String: String] = [:]
            for theme in themes {
                let ids = try pin(routePin, theme)
                for id in [ids.icon, ids.callout] {
                    guard let scales = pictures[id], !scales.isEmpty else { throw MapError(.image, "no picture of \(id) for the preview") }
                    icons[id] = Dictionary(uniqueKeysWithValues: scales.map { ($0.key.description, $0.value) })
                }
                (icon[theme.name], callout[theme.name]) = ids
            }
            pins.append(
                PinFeature(
                    pin: routePin.number, lon: routePin.coordinate.longitude, lat: routePin.coordinate.latitude, zooms: routePin.zooms,
                    turned: routePin.minzoomTurned, title: routePin.callout.title, icon: icon, callout: callout))
        }
        let total = route.stages.reduce(0) { $0 + $1.coordinates.count }
        let step = max(1, (total + maximumPoints - 1) / maximumPoints)
        let stages = route.stages.map { stage in
            let kept =
                stride(from: 0, to: stage.coordinates.count, by: step).map { stage.coordinates[$0] }
                + (stage.coordinates.count > 1 && (stage.coordinates.count - 1) % step != 0 ? [stage.coordinates[stage.coordinates.count - 1]] : [])
            // The line is drawn at screen resolution: a millionth of a degree is far below a pixel,
            // and six decimals take half the bytes (and half the time to spell) of seventeen digits.
            return kept.map { [Self.micro($0.longitude), Self.micro($0.latitude)] }
        }
        let length = plan.stageLengths.reduce(0, +) / unit.metres
        let title =
            "\(plan.stageLengths.count) stage\(plan.stageLengths.count == 1 ? "" : "s"), \(Label.number(for: length, mark: mark)) \(unit.rawValue)"
        var payload = Payload(title: title, themes: themes.map(\.name), icons: icons, markers: markers, stages: stages)
        payload.offline = offline.map { Self.offline($0, basemap: basemap) }
        payload.pins = pins
        let json: [UInt8]
        do { json = try payload.jsonValue.bytes() } catch { throw MapError(.encoding, "cannot encode the preview's data: \(error)") }
        let page = Array(PreviewTemplate.html.utf8)
        let placeholder = Array("__DATA__".utf8)
        guard let at = page.firstRange(of: placeholder) else { throw MapError(.encoding, "the preview template has no data placeholder") }
        var html: [UInt8] = []
        html.reserveCapacity(page.count + json.count + 64)
        html += page[..<at.lowerBound]
        // Inside <script>, `</script>` or `<!--` in a name would end or bend it; `<` only occurs in strings.
        var written = 0
        while let lessThan = json[written...].firstIndex(of: UInt8(ascii: "<")) {
            html += json[written..<lessThan]
            html += #"\u003c"#.utf8
            written = lessThan + 1
        }
        html += json[written...]
        html += page[at.upperBound...]
        return html
    }

    /// What the page draws of an offline pack: the corridor's rings and each zoom's runs of tiles.
    private static func offline(_ pack: OfflinePack, basemap: Basemap?) -> JSONValue {
        let corridor: [JSONValue] = pack.corridor.map { rings in
            .array(rings.map { .array($0.map { .array([.number(micro($0.longitude)), .number(micro($0.latitude))]) }) })
        }
        let levels: [JSONValue] = pack.levels.map { level in
            .object([
                .init("boxCount", .integer(level.boxCount)), .init("count", .integer(level.tiles.count)),
                .init("runs", .array(level.tiles.runs.map { .array([.integer($0.y), .integer($0.xs.lowerBound), .integer($0.xs.upperBound)]) })),
                .init("tileZoom", .integer(level.tileZoom)), .init("zoom", .integer(level.zoom)),
            ])
        }
        let drawn: [JSONValue.Member] = basemap.map { basemap in
            [.init("basemap", .object([
                .init("file", .string(basemap.file)), .init("format", .string(basemap.format)), .init("raster", .bool(basemap.isRaster)),
            ]))]
        } ?? []
        return .object(drawn + [.init("corridor", .array(corridor)), .init("levels", .array(levels))])
    }

    /// `degrees` to six decimals.
    private static func micro(_ degrees: Double) -> Double { (degrees * 1e6).rounded() / 1e6 }
}

extension PreviewPage.Payload {
    /// What the synthesized `encode(to:)` encodes (written as `JSONEncoder` with `.sortedKeys` writes it).
    var jsonValue: JSONValue {
        .object([
            .init("title", .string(title)), .init("themes", .array(themes.map(JSONValue.string))),
            .init("icons", .object(icons.map { id, scales in .init(id, .object(scales.map { .init($0.key, $0.value.jsonValue) })) })),
            .init("markers", .array(markers.map(\.jsonValue))),
            .init("pins", .array(pins.map(\.jsonValue))),
            .init("calloutLift", .number(PinLayer.calloutLift)),
            .init("stages", .array(stages.map { .array($0.map { .array($0.map(JSONValue.number)) }) })),
        ] + (offline.map { [.init("offline", $0)] } ?? []))
    }
}

extension PreviewPage.Picture {
    /// Members in key order, which the writer then need not sort.
    var jsonValue: JSONValue {
        .object([
            .init("anchorX", .number(anchorX)), .init("anchorY", .number(anchorY)), .init("file", .string(file)),
            .init("height", .integer(height)), .init("scale", .number(scale)), .init("width", .integer(width)),
        ])
    }
}

extension PreviewPage.Feature {
    /// Members in key order, which the writer then need not sort.
    var jsonValue: JSONValue {
        .object([
            .init("icon", .object(icon.map { .init($0.key, .string($0.value)) })), .init("label", .string(label)), .init("lat", .number(lat)),
            .init("lon", .number(lon)), .init("top", .integer(top)), .init("turned", .integer(turned)),
            .init("zooms", .array(zooms.map(JSONValue.integer))),
        ])
    }
}

extension PreviewPage.PinFeature {
    /// Members in key order, which the writer then need not sort.
    var jsonValue: JSONValue {
        func byTheme(_ ids: [String: String]) -> JSONValue { .object(ids.sorted { $0.key < $1.key }.map { .init($0.key, .string($0.value)) }) }
        return .object([
            .init("callout", byTheme(callout)), .init("icon", byTheme(icon)), .init("lat", .number(lat)), .init("lon", .number(lon)),
            .init("pin", .integer(pin)), .init("title", .string(title)), .init("turned", .integer(turned)),
            .init("zooms", .array(zooms.map(JSONValue.integer))),
        ])
    }
}
