import RouteModel
import RoutePlacement
import MarkerSpec
import TestSupport
import Testing

@Suite("A route's waypoints as pins")
struct RoutePinTests {
    struct SymbolCase: Sendable, CustomTestStringConvertible {
        let symbol: String?
        let colour: String?
        let icon: PinIcon
        let fill: Colour
        var testDescription: String { "\(symbol ?? "no symbol") \(colour ?? "")" }
    }

    static let symbolCases: [SymbolCase] = [
        SymbolCase(symbol: "Drinking Water", colour: nil, icon: .water, fill: PinIcon.water.categoryColour),
        SymbolCase(symbol: "mountain", colour: "#8E24AA", icon: .summit, fill: Colour(rgb: 0x8E, 0x24, 0xAA)),
        // simplestyle's colour without its hash, and in three digits.
        SymbolCase(symbol: "cafe", colour: "f00", icon: .cafe, fill: Colour(rgb: 0xFF, 0, 0)),
        // Garmin's default flag names no icon: the info icon, neutral.
        SymbolCase(symbol: "Flag, Blue", colour: nil, icon: .info, fill: Pin.neutralColour),
        SymbolCase(symbol: nil, colour: "#00ff00", icon: .info, fill: Colour(rgb: 0, 0xFF, 0)),
        // A colour that is not one leaves the icon's.
        SymbolCase(symbol: "Campground", colour: "greenish", icon: .camp, fill: PinIcon.camp.categoryColour),
        // A colour's alpha is dropped: a pin is opaque.
        SymbolCase(symbol: "Restroom", colour: "#11223380", icon: .toilets, fill: Colour(rgb: 0x11, 0x22, 0x33)),
    ]

    @Test("a waypoint's symbol and marker-color make its pin", arguments: symbolCases)
    func pinFromSymbol(_ example: SymbolCase) {
        let waypoint = Waypoint(coordinate: Coordinate(latitude: 46, longitude: 14), name: "Here", symbol: example.symbol, colour: example.colour)
        let (routePin, warning) = RoutePin.make(waypoint, number: 4, zooms: [])
        #expect(routePin.pin.face == .icon(example.icon))
        #expect(routePin.pin.colour == example.fill)
        #expect((warning != nil) == (example.colour == "greenish"), "\(warning ?? "")")
        if let warning { #expect(warning.contains("waypoint 4") && warning.contains("greenish")) }
    }

    struct TextCase: Sendable, CustomTestStringConvertible {
        let name: String?
        let description: String?
        let symbol: String?
        let title: String
        let lines: [String]
        var testDescription: String { "\(name ?? "nil") / \(description ?? "nil")" }
    }

    static let textCases: [TextCase] = [
        TextCase(name: "Spring", description: "Cold water all year", symbol: nil, title: "Spring", lines: ["Cold water all year"]),
        // Garmin repeats the name as the description: said once.
        TextCase(name: "BIRDS NEST", description: "birds nest ", symbol: nil, title: "BIRDS NEST", lines: []),
        TextCase(name: nil, description: nil, symbol: "Summit", title: "Summit", lines: []),
        TextCase(name: "  ", description: "\t", symbol: nil, title: "Waypoint 9", lines: []),
        TextCase(name: "\u{1}\u{2}", description: nil, symbol: nil, title: "Waypoint 9", lines: []),
        TextCase(
            name: String(repeating: "é", count: 250), description: String(repeating: "x", count: 900), symbol: nil,
            title: String(repeating: "é", count: 199) + "…", lines: [String(repeating: "x", count: 299) + "…"]),
    ]

    @Test("a waypoint's name and description make its callout, cut to what a callout takes", arguments: textCases)
    func calloutFromText(_ example: TextCase) {
        let waypoint = Waypoint(
            coordinate: Coordinate(latitude: 46, longitude: 14), name: example.name, description: example.description, symbol: example.symbol)
        let callout = RoutePin.make(waypoint, number: 9, zooms: []).pin.callout
        #expect(callout.title == example.title)
        #expect(callout.lines == example.lines)
    }

    /// A 3 km stage along the equator with waypoints at `metres` along it.
    static func route(waypointsAt metres: [Double]) -> Route {
        let degrees = 3000 / 6_378_137 * 180 / Double.pi
        let stage = Stage(coordinates: [Coordinate(latitude: 0, longitude: 10), Coordinate(latitude: 0, longitude: 10 + degrees)])
        let waypoints = metres.map { metres in
            Waypoint(coordinate: Coordinate(latitude: 0, longitude: 10 + metres / 6_378_137 * 180 / .pi), name: "at \(Int(metres)) m", symbol: "Summit")
        }
        return Route(stages: [stage], waypoints: waypoints)
    }

    /// A footprint like a marker's: a pill 40 × 20 above a dot.
    static let markerFootprint = MarkerFootprint(
        pill: MarkerFootprint.Box(left: -20, top: -24, right: 20, bottom: -4), dot: MarkerFootprint.Box(left: -3, top: -3, right: 3, bottom: 3))

    static func plan(_ route: Route) throws -> MarkerPlan {
        try MarkerPlan(route: route, options: MarkerPlan.Options()) { _ throws(RouteError) in markerFootprint }
    }

    @Test("a pin on a distance marker's point shows before it; on the start's, never")
    func pinsAfterStartsBeforeDistances() throws {
        let plan = try Self.plan(Self.route(waypointsAt: [1000, 0]))
        let onKilometre = try #require(plan.markers.first { $0.kind == .distance && $0.distance == 1 })
        let start = try #require(plan.markers.first { $0.kind == .start })
        #expect(plan.pins.count == 2)
        #expect(plan.pins[0].minzoom <= 22)
        // Both on one point: the pin shows, the kilometre waits for good.
        #expect(onKilometre.minzoom == ScreenPlacement.never)
        #expect(start.minzoom == 0)
        #expect(plan.pins[1].minzoom == ScreenPlacement.never)
        #expect(plan.pins[1].zooms.isEmpty)
    }

    @Test("pins that meet show one at a time, the file's first first, each from one zoom on")
    func pinsInFileOrder() throws {
        // 30 m apart: on the map, a pin's width at zoom 18 or so.
        let plan = try Self.plan(Self.route(waypointsAt: [1500, 1530, 1560]))
        let minzooms = plan.pins.map(\.minzoom)
        // The middle one meets both, so it waits for both; the last waits only for the first.
        #expect(minzooms[0] < minzooms[2], "\(minzooms)")
        #expect(minzooms[2] < minzooms[1], "\(minzooms)")
        for routePin in plan.pins {
            #expect(routePin.zooms == Array(routePin.minzoom...22))
            #expect(routePin.minzoomTurned >= routePin.minzoom)
        }
    }

    @Test("with the app's zoom table, pins show at every zoom")
    func tablePins() throws {
        var options = MarkerPlan.Options()
        options.visibility = .table
        let plan = try MarkerPlan(route: Self.route(waypointsAt: [10, 20]), options: options) { _ throws(RouteError) in Self.markerFootprint }
        #expect(plan.pins.allSatisfy { $0.zooms == Array(0...22) && $0.minzoom == 0 })
    }
}
