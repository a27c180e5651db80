import MarkerSpec
import OfflineCorridor
import RouteModel
import SystemPackage
import Testing

@Suite("The offline style and the pack job")
struct OfflineStyleTests {
    static let route = Route(stages: [Stage(coordinates: [Coordinate(latitude: 46.05, longitude: 14.5), Coordinate(latitude: 46.06, longitude: 14.52)])])
    static let markers: JSONValue = [
        "version": 8, "name": "markerpaint",
        "sprite": [["id": "markerpaint-day", "url": "https://example.com/ride/sprite-day-1"]],
        "sources": ["markerpaint-markers": ["type": "geojson", "data": "https://example.com/ride/markers.geojson"]],
        "layers": [["id": "markerpaint-day", "type": "symbol", "source": "markerpaint-markers"]],
    ]
    static func basemap(raster: Bool, format: String = "pmtiles") -> OfflineStyle.Basemap {
        .init(fileName: "pack-abc.\(format)", format: format, isRaster: raster, tileSize: 256, attribution: "© OSM", minimumZoom: 8, maximumZoom: 14)
    }

    @Test("raster: background, the pack, the route, then the markers' layers on top; the markers' sprites and source kept")
    func rasterOrder() throws {
        let style = OfflineStyle.style(markers: Self.markers, baseURL: "https://example.com/ride/", route: Self.route, basemap: Self.basemap(raster: true))
        let ids = style["layers"]?.arrayElements?.compactMap { layer -> String? in
            guard case .string(let id)? = layer["id"] else { return nil }
            return id
        }
        #expect(ids == ["markerpaint-background", "markerpaint-basemap", "markerpaint-route-casing", "markerpaint-route", "markerpaint-day"])
        #expect(style["sprite"] == Self.markers["sprite"])
        let sources = try #require(style["sources"]?.objectMembers)
        #expect(sources["markerpaint-markers"] == Self.markers["sources"]?["markerpaint-markers"])
        #expect(sources[OfflineStyle.basemapSourceID]?["url"] == "pmtiles://https://example.com/ride/offline/pack-abc.pmtiles")
        #expect(sources[OfflineStyle.basemapSourceID]?["type"] == "raster")
    }

    @Test("vector with the user's style: every vector source points at the pack, their sprite kept before ours")
    func vectorUserStyle() throws {
        let user = try OfflineStyle.basemapStyle(
            parsing: Array(
                #"{"version":8,"sprite":"https://tiles.example/sprite","sources":{"osm":{"type":"vector","tiles":["https://x/{z}/{x}/{y}"]},"hill":{"type":"raster","url":"https://h"}},"layers":[{"id":"water","type":"fill","source":"osm"}]}"#
                    .utf8))
        let style = OfflineStyle.style(
            markers: Self.markers, baseURL: "file:///data/ride/", route: Self.route, basemap: Self.basemap(raster: false, format: "mbtiles"), basemapStyle: user)
        let sources = try #require(style["sources"]?.objectMembers)
        #expect(sources["osm"]?["url"] == "mbtiles:///data/ride/offline/pack-abc.mbtiles")
        #expect(sources["osm"]?["tiles"] == nil)
        #expect(sources["hill"]?["url"] == "https://h")
        #expect(style["sprite"]?.arrayElements?.first?.objectMembers == ["id": "default", "url": "https://tiles.example/sprite"])
        #expect(style["layers"]?.arrayElements?.first?["id"] == "water")
        #expect(style["layers"]?.arrayElements?.last?["id"] == "markerpaint-day")
    }

    @Test(
        "a --pack-style that is not a vector MapLibre style is refused with one sentence",
        arguments: [
            ("[1, 2", "is not a MapLibre style"),
            (#"{"sources":{}}"#, "it needs \"sources\" and \"layers\""),
            (#"{"sources":{"a":{"type":"raster"}},"layers":[]}"#, "has no vector source"),
        ])
    func badBasemapStyles(text: String, says: String) {
        #expect {
            try OfflineStyle.basemapStyle(parsing: Array(text.utf8))
        } throws: { error in
            (error as? OfflineError)?.message.contains(says) == true && !(error as? OfflineError)!.message.contains("\n")
        }
    }

    @Test("a pack process that fails without its record, or cannot start, is one typed error")
    func packProcessFailures() async {
        let job = { (executable: String) in
            OfflineTilesJob(executable: FilePath(executable), source: "https://x", format: "pmtiles", maximumBytes: 1, concurrency: 1, tileSize: nil)
        }
        await #expect(throws: OfflineError("markerpaint-pack stopped (status 1) without saying why")) {
            try await job("/bin/false").run(tileList: "/nonexistent/tiles.json", into: "/nonexistent")
        }
        await #expect {
            try await job("/nonexistent/markerpaint-pack").run(tileList: "/nonexistent/tiles.json", into: "/nonexistent")
        } throws: { error in
            (error as? OfflineError)?.message.hasPrefix("cannot start /nonexistent/markerpaint-pack") == true
        }
    }
}
