public import MarkerSpec
public import RouteModel

/// One marker to draw on the map: what it shows, where it goes and at which zooms it shows.
public struct RouteMarker: Sendable, Equatable {
    /// What the marker shows: the renderer draws exactly this.
    public var marker: Marker
    /// The 1-based number of the stage it belongs to.
    public var stage: Int
    /// The stage's name, if it has one.
    public var stageName: String?
    /// Where the marker goes.
    public var coordinate: Coordinate
    /// The zooms, ascending, at which the marker shows: from `minzoom` on when placed on the map,
    /// a zoom table's own (`30km` at 7–8 and from 11) otherwise.
    public var zooms: [Int]
    /// The smallest of `zooms`; `ScreenPlacement.never` (past the last zoom) if there are none.
    public var minzoom: Int
    /// From which zoom the marker shows on a map turned to any bearing (course-up), its picture
    /// upright: never before `minzoom`. The same as `minzoom` for a zoom table's markers.
    public var minzoomTurned: Int

    /// Creates a marker; `minzoom` is taken from `zooms`.
    public init(marker: Marker, stage: Int, stageName: String?, coordinate: Coordinate, zooms: [Int]) {
        self.marker = marker
        self.stage = stage
        self.stageName = stageName
        self.coordinate = coordinate
        self.zooms = zooms
        self.minzoom = zooms.min() ?? ScreenPlacement.never
        self.minzoomTurned = minzoom
    }

    /// Shows the marker at every zoom from `minzoom` on (at none if it is past the last), and on a
    /// turned map from `turnedFrom` (`minzoom` if not given).
    public mutating func show(from minzoom: Int, turnedFrom: Int? = nil) {
        let shown = Shown(from: minzoom, turnedFrom: turnedFrom)
        (zooms, self.minzoom, minzoomTurned) = (shown.zooms, shown.minzoom, shown.minzoomTurned)
    }

    /// The zooms of a picture shown from `minzoom` on (none if past the last), and turned from
    /// `turnedFrom`, never before `minzoom`.
    struct Shown {
        var zooms: [Int]
        var minzoom: Int
        var minzoomTurned: Int

        init(from minzoom: Int, turnedFrom: Int?) {
            self.minzoom = minzoom
            minzoomTurned = max(minzoom, turnedFrom ?? minzoom)
            zooms = minzoom <= ZoomTable.zooms.upperBound ? Array(max(minzoom, ZoomTable.zooms.lowerBound)...ZoomTable.zooms.upperBound) : []
        }
    }

    /// What the marker marks.
    public var kind: Marker.Kind { marker.kind }
    /// What the marker reads, exactly, in `unit`: whole for distance markers, a combined marker's last part.
    public var distance: Double { marker.distance }
    /// The unit `distance` is in.
    public var unit: Marker.Unit { marker.unit }
}
