/// One continuous part of a route (a GPX track or route, a GeoJSON line), measured on its own.
public struct Stage: Sendable, Equatable {
    /// The name the file gives it, if any.
    public var name: String?
    /// Its points in travel order.
    public var coordinates: [Coordinate]

    /// Creates a stage from its points.
    public init(name: String? = nil, coordinates: [Coordinate]) {
        self.name = name
        self.coordinates = coordinates
    }
}

/// A route read from a file: its stages in order, and what was skipped while reading it.
public struct Route: Sendable, Equatable {
    /// The stages that have at least 2 distinct points.
    public var stages: [Stage]
    /// One line per part of the input that was dropped, for the user to see.
    public var warnings: [String]
    /// The points of interest the file marks beside the way, in the file's order.
    public var waypoints: [Waypoint]

    /// Creates a route from stages.
    public init(stages: [Stage], warnings: [String] = [], waypoints: [Waypoint] = []) {
        self.stages = stages
        self.warnings = warnings
        self.waypoints = waypoints
    }
}

/// A point of interest a route file marks beside its way: a GPX waypoint (`<wpt>`) or a GeoJSON
/// Point feature, with what the file says of it.
public struct Waypoint: Sendable, Equatable {
    public var coordinate: Coordinate
    public var name: String?
    public var description: String?
    /// The file's symbol: GPX's `<sym>` (Garmin's names) or simplestyle's `marker-symbol` (Maki's).
    public var symbol: String?
    /// simplestyle's `marker-color`, as written.
    public var colour: String?

    public init(coordinate: Coordinate, name: String? = nil, description: String? = nil, symbol: String? = nil, colour: String? = nil) {
        self.coordinate = coordinate
        self.name = name
        self.description = description
        self.symbol = symbol
        self.colour = colour
    }

    /// The most waypoints a route is read with: planners write dozens, and each becomes a pin and
    /// a callout, a callout some 13 markers' worth of pixels at each theme and scale.
    public static let maximumCount = 1_000
    /// The longest name, description or symbol kept, in characters; longer is cut.
    public static let maximumTextCharacters = 1_000
}
