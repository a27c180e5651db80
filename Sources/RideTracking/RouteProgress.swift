public import RouteModel

/// Where a rider is on a course, worked out from one fix.
public struct RouteProgress: Sendable, Equatable {
    /// What happened at this fix, if anything.
    public enum Event: String, Sendable, Equatable {
        /// The rider set off from the course's start.
        case start
        /// The rider reached the end of a stage other than the last.
        case stageFinish
        /// The rider reached the course's end.
        case finish
    }

    /// The rider's place on the course.
    public var snapped: Coordinate
    /// Metres along the course from its start (all stages before this one counted).
    public var distance: Double
    /// Metres along the course still to go.
    public var remaining: Double
    /// The 1-based stage the rider is in.
    public var stage: Int
    /// Metres along that stage.
    public var stageDistance: Double
    /// Metres of that stage still to go.
    public var stageRemaining: Double
    /// Metres from the fix to the course, to whichever part of it is nearest: never more than to
    /// `snapped`, never less than to the course's nearest point.
    public var offset: Double
    /// Whether the rider is following the course: decided by the fix's stray across the way from
    /// where the receiver's drift puts it, not by `offset`, against `threshold`.
    public var onRoute: Bool
    /// The threshold in metres this fix's stray was held to.
    public var threshold: Double
    /// What happened at this fix.
    public var event: Event?
}
