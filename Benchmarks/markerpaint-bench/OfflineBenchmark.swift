import ArgumentParser
import Foundation
import RouteModel
import RoutePlacement
import OfflineCorridor

extension MarkerBench {
    /// The offline pack of a long route: its corridor and tiles, against the bounding box the seed app downloads.
    struct OfflineRun: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "offline",
            abstract: "Work out the offline pack (corridor and tiles) of a long route on one core; the box's tiles as reference.",
            discussion: """
                The route is the winding walk `placement` uses (about 8 m between points; 375,000 points make about 3,000 km). \
                The pack's time is the median of --runs. The seed app downloads every tile of the route's bounding box grown by \
                the buffer: its count is printed beside the pack's, zoom by zoom.
                """
        )

        @Option(help: "Points in the route.") var points = 375_000
        @Option(help: "Metres around the route.") var buffer = 2_000.0
        @Option(help: "Map zooms, as first-last.") var zooms = "8-16"
        @Option(help: "Tile size: 256 or 512.") var tileSize = 256
        @Option(help: "Runs; the time is the median run.") var runs = 5

        func validate() throws {
            guard (2...10_000_000).contains(points) else { throw ValidationError("--points must be 2 to 10000000") }
            guard (1...100).contains(runs) else { throw ValidationError("--runs must be 1 to 100") }
            guard zoomRange != nil else { throw ValidationError("--zooms must be two zooms from 0 to 22, as 8-16") }
        }

        var zoomRange: ClosedRange<Int>? { OfflinePack.Options.zooms(parsing: zooms) }

        func run() throws {
            let route = Route(stages: [Stage(name: "bench", coordinates: SyntheticRoute.winding(points: points))])
            var options = OfflinePack.Options()
            options.buffer = buffer
            options.zooms = zoomRange ?? 8...16
            options.tileSize = tileSize
            options.maximumTiles = 100_000_000
            var times: [Double] = []
            var pack: OfflinePack? = nil
            for _ in 1...runs {
                let (made, time) = try timed { try OfflinePack(route: route, options: options) }
                times.append(time)
                pack = made
            }
            guard let pack else { return }
            let length = MeasuredStage(route.stages[0]).length
            print("route: \(points) points, \(String(format: "%.1f", length / 1000)) km; buffer \(Int(buffer)) m, zooms \(zooms), \(tileSize)-px tiles")
            print("pack (corridor and tiles): \(String(format: "%.3f", times.sorted()[times.count / 2])) s (median of \(runs))")
            let points = pack.corridor.joined().map(\.count).reduce(0, +)
            print("corridor: \(pack.corridor.count) polygon(s), \(points) points")
            print("zoom  tile zoom        tiles          box   box/tiles")
            for level in pack.levels {
                print(
                    String(format: "%4d  %9d  %11d  %11d  %10.1f", level.zoom, level.tileZoom, level.tiles.count, level.boxCount,
                        Double(level.boxCount) / Double(max(1, level.tiles.count))))
            }
            print(String(format: "all              %11d  %11d  %10.1f", pack.count, pack.boxCount, Double(pack.boxCount) / Double(max(1, pack.count))))
        }
    }
}
