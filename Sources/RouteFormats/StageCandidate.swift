import RouteModel

/// A stage as read from a file, before stages with fewer than 2 distinct points are dropped.
struct StageCandidate: Sendable {
    /// Where the stage is in the file, for warnings: `track 2 "Evening ride"`, `feature 3`.
    var label: String
    var stage: Stage

    /// A stage labelled by its `location` and its quoted name, if it has one.
    init(at location: String, name: String?, coordinates: [Coordinate]) {
        label = location + (name.map { " \"\($0)\"" } ?? "")
        stage = Stage(name: name, coordinates: coordinates)
    }
}

extension Route {
    /// Keeps the stages that have at least 2 distinct points and warns about the others.
    init(assembling candidates: [StageCandidate]) throws(RouteError) {
        var stages: [Stage] = []
        var warnings: [String] = []
        for candidate in candidates {
            let coordinates = candidate.stage.coordinates
            if let first = coordinates.first, coordinates.contains(where: { $0 != first }) {
                stages.append(candidate.stage)
            } else if coordinates.isEmpty {
                warnings.append("\(candidate.label): dropped, it has no points")
            } else {
                warnings.append("\(candidate.label): dropped, it has fewer than 2 distinct points")
            }
        }
        guard !stages.isEmpty else {
            if candidates.count == 1 {
                throw RouteError("\(candidates[0].label) has fewer than 2 distinct points; a route needs at least 2")
            }
            throw RouteError(
                "fewer than 2 distinct points in every one of the \(candidates.count) stages; a route needs at least 2")
        }
        self.init(stages: stages, warnings: warnings)
    }
}

/// Checks of the numbers a file gives for a position.
enum CoordinateCheck {
    /// The coordinate, if both numbers are finite and in range; otherwise an error prefixed with `location`.
    ///
    /// The location is only formatted when there is an error: readers call this for every point.
    static func coordinate(
        latitude: Double, longitude: Double, at location: @autoclosure () -> String
    ) throws(RouteError) -> Coordinate {
        if let coordinate = validCoordinate(latitude: latitude, longitude: longitude) { return coordinate }
        try check(longitude, named: "longitude", limit: longitudeLimit, at: location)
        try check(latitude, named: "latitude", limit: latitudeLimit, at: location)
        return Coordinate(latitude: latitude, longitude: longitude)
    }

    /// The coordinate if both numbers are finite and in range, nil otherwise, with no message in
    /// the making: the test every point passes through (NaN and infinities fail the comparisons).
    static func validCoordinate(latitude: Double, longitude: Double) -> Coordinate? {
        guard abs(latitude) <= latitudeLimit, abs(longitude) <= longitudeLimit else { return nil }
        return Coordinate(latitude: latitude, longitude: longitude)
    }

    private static let latitudeLimit: Double = 90
    private static let longitudeLimit: Double = 180

    private static func check(
        _ value: Double, named name: String, limit: Double, at location: () -> String
    ) throws(RouteError) {
        guard value.isFinite else {
            throw RouteError("\(location()): \(name) \(describe(value)) is not a finite number")
        }
        guard abs(value) <= limit else {
            throw RouteError("\(location()): \(name) \(describe(value)) is out of range (-\(Int(limit))...\(Int(limit)))")
        }
    }

    /// A number as a message shows it: `97.2`, `NaN`, `-Infinity`.
    static func describe(_ value: Double) -> String {
        if value.isNaN { return "NaN" }
        if value.isInfinite { return value < 0 ? "-Infinity" : "Infinity" }
        return "\(value)"
    }
}
