public import MarkerArchive
import FoundationEssentials

/// `offline/tiles.json` as `route --offline` writes it: for each map zoom the tiles it needs, at
/// the zoom they are fetched (`tileZoom`), and the corridor's box.
public struct TileList: Sendable {
    /// Every tile, each once.
    public var tiles: [TileAddress]
    /// West, south, east, north.
    public var box: (west: Double, south: Double, east: Double, north: Double)
    public var minimumZoom: Int
    public var tileSize: Int

    private struct Document: Decodable {
        struct Zoom: Decodable {
            var zoom: Int
            var tileZoom: Int
            var tiles: [[Int]]
        }
        var box: [Double]
        var minzoom: Int
        var tileSize: Int
        var zooms: [Zoom]
    }

    /// Reads the document, refusing one that lists a tile outside its zoom.
    public init(json bytes: [UInt8]) throws {
        let document: Document
        do {
            document = try JSONDecoder().decode(Document.self, from: Data(bytes))
        } catch {
            throw SourceError("tiles.json is not the list route --offline writes: \(error)")
        }
        guard document.box.count == 4, document.box.allSatisfy(\.isFinite) else { throw SourceError("tiles.json: its box is not four numbers") }
        var tiles = Set<TileAddress>()
        for zoom in document.zooms {
            for pair in zoom.tiles {
                let address = TileAddress(zoom: zoom.tileZoom, x: pair.first ?? -1, y: pair.count == 2 ? pair[1] : -1)
                guard pair.count == 2, address.isValid else { throw SourceError("tiles.json: \(pair) is no tile at zoom \(zoom.tileZoom)") }
                tiles.insert(address)
            }
        }
        self.tiles = tiles.sorted()
        box = (document.box[0], document.box[1], document.box[2], document.box[3])
        minimumZoom = document.minzoom
        tileSize = document.tileSize
    }
}
