import Foundation
import MarkerRoute
import TestSupport
import Testing

@Suite("Offline packs")
struct OfflinePackTests {
    @Test("a real track: tiles at every zoom, each zoom's parents in the next out, fewer than the box's")
    func realTrack() throws {
        let route = try Route.load(path: Repository.sharedRoutes.appendingPathComponent("korita-zbevnica.gpx").path, format: nil)
        let pack = try OfflinePack(route: route, options: OfflinePack.Options())
        #expect(pack.levels.map(\.zoom) == Array(8...16))
        for (outer, inner) in zip(pack.levels, pack.levels.dropFirst()) {
            for tile in inner.tiles.tiles { #expect(outer.tiles.contains(x: tile.x >> 1, y: tile.y >> 1)) }
        }
        #expect(pack.count < pack.boxCount)
    }
}
