import RouteModel
public import MarkerSpec

/// The files of an offline pack, as map SDKs and a download manager read them.
public enum OfflineFiles {
    /// The subfolder of a route folder they are written to.
    public static let folder = "offline"
    public static let corridorName = "corridor.geojson"
    public static let tilesName = "tiles.json"

    /// A tile's bytes when the user gives none: about what a 256-pixel raster or a 512-pixel vector tile
    /// of open country weighs; `--tile-bytes` gives a tile source's own.
    public static let defaultTileBytes = 20_000

    /// The corridor as a GeoJSON geometry: a Polygon, or a MultiPolygon of parts split at the antimeridian.
    public static func geometry(_ pack: OfflinePack) -> JSONValue {
        func position(_ coordinate: Coordinate) -> JSONValue { .array([.number(rounded(coordinate.longitude)), .number(rounded(coordinate.latitude))]) }
        let polygons: [JSONValue] = pack.corridor.map { rings in .array(rings.map { .array($0.map(position)) }) }
        return polygons.count == 1
            ? .object(["type": .string("Polygon"), "coordinates": polygons[0]])
            : .object(["type": .string("MultiPolygon"), "coordinates": .array(polygons)])
    }

    /// `corridor.geojson`: a Feature whose geometry is the corridor, as MapLibre Native's
    /// `OfflineGeometryRegionDefinition` and Mapbox's tile regions take it, with the buffer and zooms
    /// in its properties.
    public static func corridor(_ pack: OfflinePack) throws -> [UInt8] {
        let document: JSONValue = .object([
            "type": .string("Feature"),
            "geometry": geometry(pack),
            "properties": .object([
                "buffer": .number(pack.options.buffer), "minzoom": .integer(pack.options.zooms.lowerBound),
                "maxzoom": .integer(pack.options.zooms.upperBound), "tileSize": .integer(pack.options.tileSize),
            ]),
        ])
        return try document.bytes(JSONValue.Formatting(withoutEscapingSlashes: true))
    }

    /// What `tiles.json` holds: for each map zoom the zoom of its tiles, their count and (with
    /// `listingTiles`) each as `[x, y]`, the bounding box's count beside it, and bytes estimated from
    /// `tileBytes` (by map zoom; the rest at `defaultTileBytes`); the same totals for the pack.
    public static func summary(_ pack: OfflinePack, tileBytes: [Int: Int] = [:], listingTiles: Bool) -> JSONValue {
        var zooms: [JSONValue] = []
        var (bytes, boxBytes) = (0, 0)
        for level in pack.levels {
            let size = tileBytes[level.zoom] ?? defaultTileBytes
            bytes += level.tiles.count * size
            boxBytes += level.boxCount * size
            var zoom: [String: JSONValue] = [
                "zoom": .integer(level.zoom), "tileZoom": .integer(level.tileZoom), "count": .integer(level.tiles.count),
                "boxCount": .integer(level.boxCount), "tileBytes": .integer(size), "bytes": .integer(level.tiles.count * size),
                "boxBytes": .integer(level.boxCount * size),
            ]
            if listingTiles { zoom["tiles"] = .array(level.tiles.tiles.map { .array([.integer($0.x), .integer($0.y)]) }) }
            zooms.append(.object(zoom))
        }
        let box = pack.box
        return .object([
            "buffer": .number(pack.options.buffer), "tileSize": .integer(pack.options.tileSize),
            "minzoom": .integer(pack.options.zooms.lowerBound), "maxzoom": .integer(pack.options.zooms.upperBound),
            "box": .array([box.west, box.south, box.east, box.north].map { .number(rounded($0)) }),
            "count": .integer(pack.count), "boxCount": .integer(pack.boxCount), "bytes": .integer(bytes), "boxBytes": .integer(boxBytes),
            "zooms": .array(zooms),
        ])
    }

    /// `tiles.json`: the summary with every tile listed.
    public static func tiles(_ pack: OfflinePack, tileBytes: [Int: Int] = [:]) throws -> [UInt8] {
        try summary(pack, tileBytes: tileBytes, listingTiles: true).bytes(JSONValue.Formatting(withoutEscapingSlashes: true))
    }

    /// Seven decimals of a degree: about a centimetre.
    static func rounded(_ degrees: Double) -> Double { (degrees * 1e7).rounded() / 1e7 }
}
