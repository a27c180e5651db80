public import RouteModel

/// A stage with the geodesic distance from its start to each of its points, for placing points along it.
public struct MeasuredStage: Sendable {
    /// The stage as given.
    public let stage: Stage
    /// Metres along the stage from its first point to each point; repeated points repeat the value.
    public let cumulativeDistances: [Double]
    /// Metres from the first point to the last along the stage (0 for an empty stage).
    public let length: Double

    /// Measures every segment of `stage` on the WGS84 ellipsoid.
    public init(_ stage: Stage) {
        self.stage = stage
        var distances: [Double] = []
        distances.reserveCapacity(stage.coordinates.count)
        if let first = stage.coordinates.first {
            // Compensated (Neumaier) summation: a million short segments summed naively can drift by
            // millimetres, which would move the last markers off their true distance.
            var sum = 0.0
            var compensation = 0.0
            var previous = first
            distances.append(0)
            for point in stage.coordinates.dropFirst() {
                let step = Geodesic.distance(previous, point)
                let total = sum + step
                compensation += abs(sum) >= abs(step) ? (sum - total) + step : (step - total) + sum
                sum = total
                distances.append(sum + compensation)
                previous = point
            }
        }
        cumulativeDistances = distances
        length = distances.last ?? 0
    }

    /// The point `metres` along the stage from its start, on the geodesic of the segment it falls in.
    ///
    /// Distances are clamped to the stage, so 0 or less is the first point and `length` or more the last.
    /// - Precondition: the stage has at least one point.
    public func coordinate(atDistance metres: Double) -> Coordinate {
        let coordinates = stage.coordinates
        precondition(!coordinates.isEmpty, "an empty stage has no coordinate at any distance")
        guard metres > 0 else { return coordinates[0] }  // also catches NaN
        guard metres < length else { return coordinates[coordinates.count - 1] }

        // Invariant: cumulativeDistances[low] <= metres < cumulativeDistances[high]. It holds at the
        // start (0 < metres < length) and leaves a segment of nonzero length, so repeated points are
        // never chosen.
        var low = 0
        var high = coordinates.count - 1
        while high - low > 1 {
            let middle = low + (high - low) / 2
            if cumulativeDistances[middle] <= metres {
                low = middle
            } else {
                high = middle
            }
        }
        let offset = metres - cumulativeDistances[low]
        guard offset > 0 else { return coordinates[low] }
        // Interpolating latitude and longitude linearly would leave the geodesic by metres on long
        // segments; following the segment's own geodesic keeps the point exactly `metres` along.
        let azimuth = Geodesic.inverse(from: coordinates[low], to: coordinates[high]).initialAzimuth
        return Geodesic.direct(from: coordinates[low], azimuth: azimuth, distance: offset)
    }
}
