/// Which web-map zooms show which markers.
///
/// Start and end markers show at every zoom; a distance marker shows where its distance is a
/// multiple of the zoom's interval. Intervals are not nested (30 km shows at 7–8, not at 9–10 where
/// the interval is 20, and again from 11), exactly as in the original app.
public enum ZoomTable {
    /// The zooms markers are made for.
    public static let zooms: ClosedRange<Int> = 0...22

    /// The spacing in whole units of the distance markers shown at `zoom`; nil where only start and end show.
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

    /// The zooms, ascending, at which a distance marker reading `distance` whole units shows.
    public static func zooms(forDistance distance: Int) -> [Int] {
        zooms.filter { zoom in
            guard let interval = interval(forZoom: zoom) else { return false }
            return distance.isMultiple(of: interval)
        }
    }
}
