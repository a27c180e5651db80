public import ArgumentParser
import MarkerOutput
public import RouteModel
import RoutePlacement
import MarkerSpec

/// What the marker says: distance, kind, unit and the locale it reads in.
struct MarkerOptions: ParsableArguments {
    // Unconditional so that `--distance -5` reaches validation and is refused as negative, not as an unknown flag.
    @Option(parsing: .unconditional, help: ArgumentHelp("Distance the marker shows, from 0 to 100000 (e.g. 123 or 7.5).", valueName: "number"))
    var distance: Double = 0

    @Flag(help: "Draw a start marker (with a play icon): 0km, or --distance where counting goes on from earlier stages.")
    var start = false

    @Flag(help: "Draw an end marker (the route's total with a checkered flag).")
    var end = false

    @Flag(help: "Draw a countdown marker: the distance left to the end, with a minus sign (−45km: 45 km to go).")
    var countdown = false

    @OptionGroup var reading: LabelOptions

    var kind: Marker.Kind { start ? .start : end ? .end : countdown ? .countdown : .distance }

    func validate() throws {
        if [start, end, countdown].filter({ $0 }).count > 1 {
            throw ValidationError("--start, --end and --countdown cannot be used together: a marker is one of them")
        }
        _ = try makeMarker()
    }

    func makeMarker() throws -> Marker {
        let mark = try reading.parsedLocale().decimalMark
        let precision = try reading.parsedInterval().precision
        do {
            return try Marker(kind: kind, distance: distance, unit: reading.unit, mark: mark, precision: precision)
        } catch {
            throw error.validationError
        }
    }
}

extension Marker.Unit: ExpressibleByArgument {}

extension ImageFormat: ExpressibleByArgument {}

extension PlatformTarget: ExpressibleByArgument {}

extension Marker.Kind: ExpressibleByArgument {}

extension MarkerPlan.Visibility: ExpressibleByArgument {}

extension ScreenPlacement.Rotation: ExpressibleByArgument {}

extension MarkerInterval {
    /// `--interval`'s help, the same for a route, a set of labels and one marker.
    static let help =
        "Distance between markers in the unit, a multiple of 0.1 (e.g. 0.5 or 5; a range in set --labels steps by it); with a tenth, labels keep it past 10 (10.5km, not 11km)."
}

extension LabelLocale {
    /// `--locale`'s help, the same for a marker and a route.
    static let help = "Locale the label reads in, e.g. de for 7,5km (default: 7.5km). Units and digits stay as drawn."
}
extension FixFormat: ExpressibleByArgument {}
