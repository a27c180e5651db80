#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
public import RouteModel
public import MarkerSpec

/// `offline/style.json`: the route's markers over the offline pack's basemap, with nothing fetched
/// from the network. The basemap source is the pack (`pmtiles://…` or `mbtiles://…`), drawn as a
/// raster layer for raster tiles; the route is a line under the markers; the markers' own style
/// (its sprites, source and layers, every URL the folder's own) goes on top.
public enum OfflineStyle {
    /// The offline pack's archive as the style needs it.
    public struct Basemap: Sendable {
        /// Its file name in `offline/`.
        public var fileName: String
        /// `pmtiles` or `mbtiles`.
        public var format: String
        public var isRaster: Bool
        public var tileSize: Int
        public var attribution: String?
        public var minimumZoom: Int
        public var maximumZoom: Int

        public init(fileName: String, format: String, isRaster: Bool, tileSize: Int, attribution: String?, minimumZoom: Int, maximumZoom: Int) {
            self.fileName = fileName
            self.format = format
            self.isRaster = isRaster
            self.tileSize = tileSize
            self.attribution = attribution
            self.minimumZoom = minimumZoom
            self.maximumZoom = maximumZoom
        }
    }

    public static let fileName = "style.json"
    public static let basemapSourceID = "markerpaint-basemap"
    public static let routeSourceID = "markerpaint-route"

    /// The URL MapLibre opens the pack by: `pmtiles://<base>offline/<name>` (MapLibre Native 6.10
    /// and Android 11.8 on read `pmtiles://file://…`; GL JS with the pmtiles protocol reads any URL),
    /// or `mbtiles:///<path>` for a `file:///` base (an app on another base fills in its own path).
    public static func basemapURL(_ basemap: Basemap, baseURL: String) -> String {
        let relative = "\(OfflineFiles.folder)/\(basemap.fileName)"
        if basemap.format == "mbtiles" {
            return baseURL.hasPrefix("file://") ? "mbtiles://" + baseURL.dropFirst("file://".count) + relative : "mbtiles://" + relative
        }
        return "pmtiles://" + baseURL + relative
    }

    /// Reads a user's basemap style (`--pack-style`): a JSON object with `sources` and `layers`.
    public static func basemapStyle(parsing bytes: [UInt8]) throws(OfflineError) -> JSONValue {
        let value: JSONValue
        do {
            value = try JSONDecoder().decode(JSONValue.self, from: Data(bytes))
        } catch {
            throw OfflineError("--pack-style is not a MapLibre style: \(error)")
        }
        guard let members = value.objectMembers, let sources = members["sources"]?.objectMembers, case .array? = members["layers"] else {
            throw OfflineError("--pack-style is not a MapLibre style: it needs \"sources\" and \"layers\"")
        }
        guard sources.values.contains(where: { $0.objectMembers?["type"] == "vector" }) else {
            throw OfflineError("--pack-style has no vector source to point at the pack")
        }
        return value
    }

    /// The style, every URL under `baseURL` (which ends in `/`): the `markers`' style (its sprites,
    /// sources and layers) over the route and the pack. For vector tiles with the user's
    /// `basemapStyle`, that style with every vector source pointed at the pack underneath; else a
    /// background and, for raster tiles, the pack as a raster layer.
    public static func style(markers: JSONValue, baseURL: String, route: Route, basemap: Basemap, basemapStyle: JSONValue? = nil) -> JSONValue {
        let url = JSONValue.string(basemapURL(basemap, baseURL: baseURL))
        let markerStyle = markers.objectMembers ?? [:]

        var members: [String: JSONValue]
        var sources: [String: JSONValue]
        var sprites: [JSONValue] = []
        var layers: [JSONValue]
        if !basemap.isRaster, let user = basemapStyle?.objectMembers, let userSources = user["sources"]?.objectMembers,
            case .array(let userLayers)? = user["layers"]
        {
            members = user
            sources = userSources
            for (id, source) in sources {
                guard var fields = source.objectMembers, fields["type"] == "vector" else { continue }
                fields["url"] = url
                fields["tiles"] = nil
                sources[id] = .object(fields)
            }
            switch user["sprite"] {
            case .string(let spriteURL)?: sprites.append(["id": "default", "url": .string(spriteURL)])
            case .array(let list)?: sprites += list
            default: break
            }
            layers = userLayers
        } else {
            members = ["version": 8, "name": "markerpaint offline"]
            var source: [String: JSONValue] = [
                "type": basemap.isRaster ? "raster" : "vector", "url": url, "tileSize": .integer(basemap.tileSize),
                "minzoom": .integer(basemap.minimumZoom), "maxzoom": .integer(basemap.maximumZoom),
            ]
            if let attribution = basemap.attribution { source["attribution"] = .string(attribution) }
            sources = [basemapSourceID: .object(source)]
            layers = [["id": "markerpaint-background", "type": "background", "paint": ["background-color": "#f2efe9"]]]
            if basemap.isRaster { layers.append(["id": "markerpaint-basemap", "type": "raster", "source": .string(basemapSourceID)]) }
        }
        sources[routeSourceID] = ["type": "geojson", "data": routeGeoJSON(route)]
        sources.merge(markerStyle["sources"]?.objectMembers ?? [:]) { _, ours in ours }
        members["sources"] = .object(sources)
        members["sprite"] = .array(sprites + (markerStyle["sprite"]?.arrayElements ?? []))
        members["layers"] = .array(layers + routeLayers + (markerStyle["layers"]?.arrayElements ?? []))
        return .object(members)
    }

    /// The route as a line, under the markers.
    static let routeLayers: [JSONValue] = [
        [
            "id": "markerpaint-route-casing", "type": "line", "source": .string(routeSourceID),
            "layout": ["line-join": "round", "line-cap": "round"], "paint": ["line-color": "#ffffff", "line-width": 7],
        ],
        [
            "id": "markerpaint-route", "type": "line", "source": .string(routeSourceID),
            "layout": ["line-join": "round", "line-cap": "round"], "paint": ["line-color": "#2f6fdf", "line-width": 4],
        ],
    ]

    /// The route's stages as a GeoJSON MultiLineString, a centimetre's precision.
    static func routeGeoJSON(_ route: Route) -> JSONValue {
        func rounded(_ degrees: Double) -> JSONValue { .number((degrees * 1e7).rounded() / 1e7) }
        return [
            "type": "Feature", "properties": .object([:]),
            "geometry": [
                "type": "MultiLineString",
                "coordinates": .array(route.stages.map { stage in .array(stage.coordinates.map { .array([rounded($0.longitude), rounded($0.latitude)]) }) }),
            ],
        ]
    }
}
