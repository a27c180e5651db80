import RouteModel
import OfflineCorridor

#if canImport(Glibc)
import Glibc
#endif

/// libFuzzer target: routes made from the bytes (up to four stages, 24 points in all, within 2° of
/// a base anywhere a map can show, a buffer of 10 m to 20 km) turned into offline packs of at most
/// 4,000 tiles at zooms 2-10. What must hold: the
/// work refused or done, never a trap; each zoom's tiles hold the parents of the next; the tile of
/// every route point at the finest zoom is listed (the route lies inside its corridor); the corridor
/// has a part wherever there are tiles.
enum OfflineTarget: FuzzTarget {
    static let name = "offline"

    static func fuzz(_ bytes: [UInt8]) {
        guard bytes.count >= 4 else { return }
        var options = OfflinePack.Options()
        options.buffer = 10 + Double(UInt16(bytes[0]) << 8 | UInt16(bytes[1])) / 65_535 * 20_000
        let first = Int(bytes[2] % 6) + 2
        options.zooms = first...(first + Int(bytes[3] % 4))
        options.tileSize = bytes[3] & 0x80 == 0 ? 256 : 512
        // Small packs, so an input costs milliseconds: the refusal past the limit is exercised too.
        options.maximumTiles = 4_000
        var stages: [Stage] = []
        var points: [Coordinate] = []
        // Points within 2° of a base anywhere a map can show (the antimeridian and Mercator's limit
        // included), so segments stay short enough to follow on the ground in milliseconds.
        guard bytes.count >= 8 else { return }
        let base = (
            latitude: Double(Int16(bitPattern: UInt16(bytes[4]) << 8 | UInt16(bytes[5]))) / 32_768 * 85,
            longitude: Double(Int16(bitPattern: UInt16(bytes[6]) << 8 | UInt16(bytes[7]))) / 32_768 * 180
        )
        var index = 8
        while index + 4 <= bytes.count, stages.count < 4, index < 8 + 4 * 24 {
            let north = Int16(bitPattern: UInt16(bytes[index]) << 8 | UInt16(bytes[index + 1]))
            let east = Int16(bitPattern: UInt16(bytes[index + 2]) << 8 | UInt16(bytes[index + 3]))
            index += 4
            // The largest step north ends the stage.
            if north == Int16.max, points.count >= 2 {
                stages.append(Stage(coordinates: points))
                points = []
                continue
            }
            let latitude = max(-85, min(85, base.latitude + Double(north) / 32_768 * 2))
            var longitude = base.longitude + Double(east) / 32_768 * 2
            if longitude > 180 { longitude -= 360 }
            if longitude < -180 { longitude += 360 }
            points.append(Coordinate(latitude: latitude, longitude: longitude))
        }
        if points.count >= 2 { stages.append(Stage(coordinates: points)) }
        guard !stages.isEmpty, let pack = try? OfflinePack(route: Route(stages: stages), options: options) else { return }
        for (outer, inner) in zip(pack.levels, pack.levels.dropFirst()) {
            FuzzHarness.require(inner.tileZoom == outer.tileZoom + 1, "zooms out of step")
            for tile in inner.tiles.tiles {
                FuzzHarness.require(outer.tiles.contains(x: tile.x >> 1, y: tile.y >> 1), "zoom \(outer.zoom) lacks a parent of \(tile)")
            }
        }
        guard let finest = pack.levels.last else { return }
        let size = Double(1 << finest.tileZoom)
        for stage in stages {
            for point in stage.coordinates {
                let x = Int(((point.longitude + 180) / 360 * size).rounded(.down)) % (1 << finest.tileZoom)
                let sine = sin(point.latitude * .pi / 180)
                let y = Int(((0.5 - log((1 + sine) / (1 - sine)) / (4 * .pi)) * size).rounded(.down))
                FuzzHarness.require(finest.tiles.contains(x: x, y: y), "the tile (\(x), \(y)) of \(point) at zoom \(finest.tileZoom) is not listed")
            }
        }
        FuzzHarness.require(finest.tiles.count > 0 && !pack.corridor.isEmpty, "a route with no corridor")
    }
}
