public import MarkerRoute
import MarkerSpec

/// The files of an offline pack, as map SDKs and a download manager read them.
public enum OfflineFiles {
    /// The subfolder of a route folder they are written to.
    public static let folder = "offline"
    public static let corridorName = "corridor.geojson"
    public static let tilesName = "tiles.json"

    /// A tile's bytes when the user gives none: about what a 256-pixel raster or a 512-pixel vector tile
    /// of open country weighs; `--tile-bytes` gives a tile source's own.
    public static let defaultTileBytes = 20_000

    /// `corridor.geojson`: a Feature whose geometry is the corridor, a Polygon or a MultiPolygon (parts
    /// split at the antimeridian), as MapLibre Native's `OfflineGeometryRegionDefinition` and Mapbox's
    /// tile regions take it, with the buffer and zooms in its properties.
    public static func corridor(_ pack: OfflinePack) throws -> [UInt8] {
        func position(_ coordinate: Coordinate) -> JSONValue {
            .array([.number(rounded(coordinate.longitude)), .number(rounded(coordinate.latitude))])
        }
        let polygons: [JSONValue] = pack.corridor.map { rings in .array(rings.map { .array($0.map(position)) }) }
        let geometry: JSONValue =
            polygons.count == 1
            ? .object([.init("coordinates", polygons[0]), .init("type", .string("Polygon"))])
            : .object([.init("coordinates", .array(polygons)), .init("type", .string("MultiPolygon"))])
        let document: JSONValue = .object([
            .init("geometry", geometry),
            .init(
                "properties",
                .object([
                    .init("buffer", .number(pack.options.buffer)),
                    .init("maxzoom", .integer(pack.options.zooms.upperBound)),
                    .init("minzoom", .integer(pack.options.zooms.lowerBound)),
                    .init("tileSize", .integer(pack.options.tileSize)),
                ])),
            .init("type", .string("Feature")),
        ])
        return try document.bytes(JSONValue.Formatting(withoutEscapingSlashes: true))
    }

    /// `tiles.json`: for each map zoom, the zoom of its tiles, their count and each as `[x, y]`, the
    /// bounding box's count beside it, and bytes estimated from `tileBytes` (by map zoom; the rest
    /// at `defaultTileBytes`); the same totals for the pack.
    public static func tiles(_ pack: OfflinePack, tileBytes: [Int: Int] = [:]) throws -> [UInt8] {
        var zooms: [JSONValue] = []
        var (bytes, boxBytes) = (0, 0)
        for level in pack.levels {
            let size = tileBytes[level.zoom] ?? defaultTileBytes
            let tiles = level.tiles.tiles.map { JSONValue.array([.integer($0.x), .integer($0.y)]) }
            bytes += level.tiles.count * size
            boxBytes += level.boxCount * size
            zooms.append(
                .object([
                    .init("boxBytes", .integer(level.boxCount * size)),
                    .init("boxCount", .integer(level.boxCount)),
                    .init("bytes", .integer(level.tiles.count * size)),
                    .init("count", .integer(level.tiles.count)),
                    .init("tileBytes", .integer(size)),
                    .init("tileZoom", .integer(level.tileZoom)),
                    .init("tiles", .array(tiles)),
                    .init("zoom", .integer(level.zoom)),
                ]))
        }
        let box = pack.box
        let document: JSONValue = .object([
            .init("box", .array([box.west, box.south, box.east, box.north].map { .number(rounded($0)) })),
            .init("boxBytes", .integer(boxBytes)),
            .init("boxCount", .integer(pack.boxCount)),
            .init("buffer", .number(pack.options.buffer)),
            .init("bytes", .integer(bytes)),
            .init("count", .integer(pack.count)),
            .init("maxzoom", .integer(pack.options.zooms.upperBound)),
            .init("minzoom", .integer(pack.options.zooms.lowerBound)),
            .init("tileSize", .integer(pack.options.tileSize)),
            .init("zooms", .array(zooms)),
        ])
        return try document.bytes(JSONValue.Formatting(withoutEscapingSlashes: true))
    }

    /// Seven decimals of a degree: about a centimetre.
    static func rounded(_ degrees: Double) -> Double { (degrees * 1e7).rounded() / 1e7 }
}
