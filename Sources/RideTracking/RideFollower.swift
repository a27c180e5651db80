public import MarkerSpec
public import RouteModel

/// Fixes followed one after another along a course, each to its progress and the countdown marker
/// nearest the distance to go, or to why it was refused: the one loop `markerpaint progress` and
/// `POST /v1/progress` both run, so the same fixes give the same lines.
public struct RideFollower: Sendable {
    /// How fixes are judged and what the countdown markers read.
    public struct Options: Sendable, Equatable {
        public var tracker = RouteTracker.Options()
        public var unit: Marker.Unit = .km
        public var interval: MarkerInterval = .one
        public var mark: Label.DecimalMark = .point

        public init() {}
    }

    /// One fix, followed or refused.
    public enum Outcome: Sendable {
        /// The rider's progress at the `fix`-th followed fix, read from input line `line`, with its countdown marker.
        case followed(RouteProgress, fix: Int, line: Int, marker: Marker)
        /// Why the fix on input line `line` could not be followed; the tracker is as before it.
        case refused(line: Int, FixError)
    }

    public let options: Options
    private var tracker: RouteTracker
    /// Fixes followed and refused so far.
    public private(set) var followed = 0
    public private(set) var refused = 0
    /// A marker a reading, not one a fix: consecutive fixes mostly share their countdown marker.
    private var markers: [Int: Marker] = [:]

    public init(course: RouteCourse, options: Options) {
        self.options = options
        tracker = RouteTracker(course: course, options: options.tracker)
    }

    /// Follows the fix of `record`.
    /// - Throws: `SpecError` only if the countdown marker cannot be labelled.
    public mutating func follow(_ record: FixRecord) throws(SpecError) -> Outcome {
        let progress: RouteProgress
        do throws(FixError) {
            progress = try tracker.update(try record.fix.get())
        } catch {
            refused += 1
            return .refused(line: record.line, error)
        }
        followed += 1
        let steps = Marker.countdownSteps(remaining: progress.remaining, unit: options.unit, interval: options.interval)
        let marker: Marker
        if let known = markers[steps] {
            marker = known
        } else {
            marker = try Marker.countdown(steps: steps, unit: options.unit, interval: options.interval, mark: options.mark)
            markers[steps] = marker
        }
        return .followed(progress, fix: followed, line: record.line, marker: marker)
    }
}
