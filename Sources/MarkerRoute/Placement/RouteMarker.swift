/// One marker to draw on the map: where it goes, what it reads and at which zooms it shows.
public struct RouteMarker: Sendable, Equatable {
    /// What the marker marks.
    public enum Kind: String, Sendable, Codable {
        case start, distance, end
    }

    /// What the marker marks.
    public var kind: Kind
    /// The 1-based number of the stage it belongs to.
    public var stage: Int
    /// The stage's name, if it has one.
    public var stageName: String?
    /// What the marker reads, in `unit`: whole for distance markers, 0 for start markers.
    public var distance: Double
    /// The unit `distance` is in.
    public var unit: DistanceUnit
    /// Where the marker goes.
    public var coordinate: Coordinate
    /// The zooms, ascending, at which the marker shows.
    public var zooms: [Int]
    /// The smallest of `zooms`.
    public var minzoom: Int

    /// Creates a marker; `minzoom` is taken from `zooms` (the largest zoom if `zooms` is empty).
    public init(
        kind: Kind, stage: Int, stageName: String?, distance: Double, unit: DistanceUnit,
        coordinate: Coordinate, zooms: [Int]
    ) {
        self.kind = kind
        self.stage = stage
        self.stageName = stageName
        self.distance = distance
        self.unit = unit
        self.coordinate = coordinate
        self.zooms = zooms
        self.minzoom = zooms.min() ?? ZoomTable.zooms.upperBound
    }
}
