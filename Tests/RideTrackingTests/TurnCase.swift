import RideTracking
import RouteModel
import TestSupport

/// One ride over a turn: a course that turns back along itself, the fixes' errors, what the rider does there.
struct TurnCase: Sendable, CustomStringConvertible {
    var course: MadeCourse
    var errors: GPSErrors
    var plan: TurnPlan
    var seed: UInt64

    var description: String { "\(course), \(errors), \(plan), seed \(seed)" }

    /// Plain white noise with and without the phone's accuracy and speed, then the phone-like regimes.
    static let regimes: [GPSErrors] = [
        .white(sigma: 10, interval: 2, receiver: .phone), .white(sigma: 10, interval: 2, receiver: .bare),
        GPSErrors(sigma: 15, correlationTime: 90, interval: 1, receiver: .bare), GPSErrors(sigma: 8, correlationTime: 30, interval: 5, receiver: .bare),
        GPSErrors(sigma: 12, correlationTime: 60, interval: 1, receiver: .phone), GPSErrors(sigma: 15, correlationTime: 30, interval: 5, receiver: .phone),
    ]
    static let plans: [TurnPlan] = [
        TurnPlan(gap: 0, wait: 0), TurnPlan(gap: 30, wait: 0), TurnPlan(gap: 90, wait: 0), TurnPlan(gap: 120, wait: 0),
        TurnPlan(gap: 0, wait: 90), TurnPlan(gap: 60, wait: 90),
    ]
    static let all: [TurnCase] = MadeCourse.turnarounds.enumerated().flatMap { courseIndex, course in
        regimes.enumerated().flatMap { regimeIndex, errors in
            plans.enumerated().map { planIndex, plan in
                TurnCase(course: course, errors: errors, plan: plan, seed: UInt64(7_000 + 100 * courseIndex + 10 * regimeIndex + planIndex))
            }
        }
    }

    func ride() -> GPSRide {
        GPSRide(course: RideCourse(course), errors: errors, pace: 5, turn: plan, seed: seed)
    }
}
