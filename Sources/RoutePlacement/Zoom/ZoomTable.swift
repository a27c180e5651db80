import RouteModel

/// Which web-map zooms show which markers.
///
/// Start and end markers show at every zoom; a distance marker shows where its distance is a
/// multiple of the zoom's interval. Intervals are not nested (30 km shows at 7–8, not at 9–10 where
/// the interval is 20, and again from 11), exactly as in the original app.
///
/// With a marker interval other than one unit the table scales with it: it counts markers, not
/// units, so with `--interval 0.5` zoom 15 shows every second marker (each whole unit) and zoom 11
/// every twentieth (each 10 units), and with `--interval 5` zoom 14 shows each 25 units.
public enum ZoomTable {
    /// The zooms markers are made for.
    public static let zooms: ClosedRange<Int> = 0...22

    /// The spacing, in marker intervals (whole units at the default interval), of the distance
    /// markers shown at `zoom`; nil where only start and end show.
    public static func interval(forZoom zoom: Int) -> Int? {
        guard zooms.contains(zoom) else { return nil }
        switch zoom {
        case 16...: return 1
        case 15: return 2
        case 14: return 5
        case 11...13: return 10
        case 9...10: return 20
        case 7...8: return 30
        case 5...6: return 50
        default: return nil
        }
    }

    /// The zooms, ascending, at which the `step`-th distance marker shows (the one reading
    /// `step` units at the default interval).
    public static func zooms(forStep step: Int) -> [Int] {
        zooms.filter { zoom in
            guard let interval = interval(forZoom: zoom) else { return false }
            return step.isMultiple(of: interval)
        }
    }
}
