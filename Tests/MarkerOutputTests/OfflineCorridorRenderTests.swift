import Foundation
import MarkerOutput
import RouteModel
import RouteFormats
import OfflineCorridor
import MarkerSpec
import RoutePlacement
import SystemPackage
import TestSupport
import Testing

/// The corridor as MapLibre Native reads it: `offline/corridor.geojson` as a GeoJSON fill, rendered
/// by mapli and compared pixel by pixel with shapely's reading of the same file (render_corridor.py).
@Suite("Offline corridor in MapLibre Native", .serialized)
struct OfflineCorridorRenderTests {
    struct Report: Decodable {
        var pixels: Int
        var red: Int
        var inside: Int
        var nearEdge: Int
        var wrong: Int
    }

    /// A 40 km line across the antimeridian, east-north-east from 179.8°E.
    static var acrossTheAntimeridian: Route {
        let start = Coordinate(latitude: -17.1, longitude: 179.8)
        return Route(stages: [Stage(coordinates: (0...80).map { Geodesic.direct(from: start, azimuth: 80, distance: Double($0) * 500) })])
    }

    static func corridor(of route: Route) async throws -> (folder: String, file: String) {
        let folder = try BatchFixtures.temporaryFolder()
        var options = RouteBatch.Options()
        options.route.themes = [.day]
        options.route.sprites = false
        options.route.offline = OfflinePack.Options()
        _ = try await RouteBatch(route: route, options: options).write(to: FilePath(folder + "/out"), threads: 2)
        return (folder, folder + "/out/offline/corridor.geojson")
    }

    @Test(
        "every pixel MapLibre Native fills is inside the corridor and every one inside is filled, but at its edge",
        arguments: [
            ("korita-zbevnica.gpx", 10.0, "14.0872,45.43"), ("korita-zbevnica.gpx", 12.5, "14.1557,45.395"),
            ("korita-zbevnica.gpx", 14.0, "14.1445,45.3806"), ("antimeridian", 9.0, "180,-17.05"), ("antimeridian", 11.0, "-179.95,-17.03"),
        ])
    func fill(route name: String, zoom: Double, centre: String) async throws {
        let route = name == "antimeridian" ? Self.acrossTheAntimeridian : try Route.load(path: Repository.sharedRoute(name), format: nil)
        let (folder, corridor) = try await Self.corridor(of: route)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let output = try await Python.run([Python.mapScript("render_corridor.py"), corridor, folder + "/corridor.png", "\(zoom)", "384", centre])
        let report = try JSONDecoder().decode(Report.self, from: Data(output.utf8))
        #expect(report.wrong == 0 && report.red > 0, "\(name) z\(zoom): \(report)")
    }
}
