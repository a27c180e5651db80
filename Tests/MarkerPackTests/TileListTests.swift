import MarkerPack
import Testing

/// `offline/tiles.json` read back as markerpaint-pack reads it: the tiles of each zoom, the box and
/// the zooms, and any list that is not what `route --offline` writes refused with one line.
@Suite("the tile list markerpaint-pack reads")
struct TileListTests {
    static let valid = """
        {"box": [13.9, 45.3, 14.6, 46.2], "minzoom": 8, "tileSize": 256, "zooms": [
          {"zoom": 8, "tileZoom": 9, "count": 2, "tiles": [[276, 180], [277, 180]]},
          {"zoom": 9, "tileZoom": 10, "count": 1, "tiles": [[553, 361]]}
        ]}
        """

    @Test("a list route --offline writes: every tile at its tile zoom, the box, the first zoom and the tile size")
    func reads() throws {
        let list = try TileList(json: Array(Self.valid.utf8))
        #expect(list.tiles.count == 3)
        #expect(Set(list.tiles.map(\.zoom)) == [9, 10])
        #expect(list.box.west == 13.9 && list.box.north == 46.2)
        #expect(list.tileSize == 256 && list.minimumZoom == 8)
    }

    @Test(
        "a list that is not one is refused",
        arguments: [
            "", "[]", "{\"box\": [1, 2, 3], \"minzoom\": 8, \"tileSize\": 256, \"zooms\": []}", "{\"box\": [13.9, 45.3, 14.6, 46.2], \"minzoom\": 8, \"tileSize\": 256, \"zooms\": [{\"zoom\": 8, \"tileZoom\": 9, \"tiles\": [[600, 0]]}]}",
            "{\"box\": [13.9, 45.3, 14.6, 46.2], \"minzoom\": 8, \"tileSize\": 256, \"zooms\": [{\"zoom\": 8, \"tileZoom\": 9, \"tiles\": [[1]]}]}",
        ])
    func refuses(text: String) {
        #expect(throws: (any Error).self) { try TileList(json: Array(text.utf8)) }
    }
}
