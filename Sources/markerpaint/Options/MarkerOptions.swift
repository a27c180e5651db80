public import ArgumentParser
import MarkerSpec

/// What the marker says: distance, kind and unit.
struct MarkerOptions: ParsableArguments {
    // Unconditional so that `--distance -5` reaches validation and is refused as negative, not as an unknown flag.
    @Option(parsing: .unconditional, help: ArgumentHelp("Distance the marker shows, from 0 to 100000 (e.g. 123 or 7.5).", valueName: "number"))
    var distance: Double = 0

    @Flag(help: "Draw a start marker (with a play icon): 0km, or --distance where counting goes on from earlier stages.")
    var start = false

    @Flag(help: "Draw an end marker (the route's total with a checkered flag).")
    var end = false

    @Option(help: "Unit of the label: km, mi or nmi (nautical miles).")
    var unit: Marker.Unit = .km

    var kind: Marker.Kind { start ? .start : end ? .end : .distance }

    func validate() throws {
        if start && end { throw ValidationError("--start and --end cannot be used together: a marker is one or the other") }
        _ = try makeMarker()
    }

    func makeMarker() throws -> Marker {
        do {
            return try Marker(kind: kind, distance: distance, unit: unit)
        } catch {
            throw error.validationError
        }
    }
}

extension Marker.Unit: ExpressibleByArgument {}
