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

    /// Creates a route from stages.
    public init(stages: [Stage], warnings: [String] = []) {
        self.stages = stages
        self.warnings = warnings
    }
}
