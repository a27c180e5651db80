import MarkerQuery
import MarkerSpec
import RouteModel
import RoutePlacement
import Testing

/// `POST /v1/routes`'s query read into the `RouteOptions` that `markerpaint route`'s flags fill:
/// every parameter lands in its field, and a bad one is refused naming it.
@Suite("route queries")
struct RouteQueryTests {
    @Test("every parameter lands in the options markerpaint route's flags fill")
    func reads() throws {
        let query = try RouteQuery(
            "unit=mi&locale=de&interval=2&countdown=true&cumulative=true&zooms=table&placement=course-up&themes=night&sprites=false&polyline=6&offline=true&buffer=500&offlineZooms=8-12&tileSize=512"
        )
        var expected = RouteOptions()
        expected.unit = .mi
        expected.locale = try LabelLocale(named: "de")
        expected.interval = try MarkerInterval(named: "2")
        expected.countdown = true
        expected.cumulative = true
        expected.visibility = .table
        expected.placement = .courseUp
        expected.themes = [.night]
        expected.sprites = false
        var corridor = CorridorOptions()
        corridor.buffer = 500
        corridor.zooms = 8...12
        corridor.tileSize = 512
        expected.offline = corridor
        #expect(query.options == expected)
        #expect(query.format == .polyline(precision: 6))
        #expect(try RouteQuery(nil).options == RouteOptions())
    }

    @Test(
        "a bad parameter is refused, naming it",
        arguments: [
            ("placement=sideways", "placement"), ("zooms=some", "zooms"), ("unit=furlong", "unit"), ("buffer=5", "buffer"),
            ("offline=true&tileSize=300", "tileSize"), ("polyline=7", "polyline"), ("colour=red", "colour"),
        ])
    func refuses(query: String, parameter: String) {
        #expect {
            _ = try RouteQuery(query)
        } throws: { error in
            "\(error)".contains(parameter)
        }
    }
}
