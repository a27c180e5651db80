import RideTracking
import RouteModel
import RoutePlacement
import TestSupport
import Testing

@Suite("Finding the rider: back from a detour the drift changed over, and after a first fix that was a spike")
struct FindingTheRiderTests {
    /// Fixes ride along the course beside it, further across than before the detour: a rider back
    /// on it whose drift has moved, not one still away. Standing when back, the place alone cannot
    /// tell them from a rider 60 m off, so the tracker waits until they ride: riding along is told
    /// from drift within seconds (5-7 here), where the tracker before read the rider off the course
    /// for 108 fixes and 412 m behind, or for the rest of the ride.
    @Test(
        "riding along the course beside it, the rider is back within a few seconds of setting off, and placed well",
        arguments: [
            DriftChangeRide(before: -25, after: 35, standing: 0),
            DriftChangeRide(before: -25, after: 35, standing: 20),
            DriftChangeRide(before: 20, after: -35, standing: 0),
            DriftChangeRide(before: 0, after: -40, standing: 10),
        ])
    func backAfterDriftChange(_ ride: DriftChangeRide) throws {
        var tracker = RouteTracker(course: try RouteCourse(route: DriftChangeRide.course))
        let samples = ride.samples
        var progress: [RouteProgress] = []
        for sample in samples { progress.append(try tracker.update(sample.fix)) }
        let away = samples.indices.filter { samples[$0].offset >= 60 }
        #expect(away.contains { !progress[$0].onRoute }, "\(ride): the detour was not flagged")
        let setOff = Int(DriftChangeRide.back + ride.standing)
        let rejoined = (setOff..<samples.count).first { progress[$0].onRoute }.map { $0 - setOff }
        #expect(rejoined.map { $0 <= 10 } ?? false, "\(ride): back on after \(rejoined.map(String.init) ?? "never") fixes of riding")
        let after = (setOff + 10)..<samples.count
        #expect(after.allSatisfy { progress[$0].onRoute }, "\(ride): flagged off again after rejoining")
        let worst = after.map { abs(progress[$0].distance - samples[$0].along) }.max() ?? .infinity
        #expect(worst <= 25, "\(ride): \(Int(worst)) m from the rider after rejoining")
    }

    /// The first fix is a spike that lands beside a loop's end, 87 m before the finish; the rider
    /// stands at the start, then rides off. The fix after it meets the course at the start and the
    /// finish alike: read forward from the spike, the rider was placed at the finish, and there was
    /// no way on from it (1,071 fixes over 100 m on the fresh seed that showed it).
    @Test("a spike as the very first fix, beside a loop's end, does not keep the rider at the finish")
    func firstFixSpikeBesideTheFinish() throws {
        let course = RideCourse(.loop)
        var tracker = RouteTracker(course: try RouteCourse(route: course.route))
        let beside = Geodesic.direct(from: course.coordinate(stage: 0, along: course.length - 87), azimuth: 0, distance: 20)
        _ = try tracker.update(Fix(coordinate: beside, time: 0))
        var worst = 0.0
        for second in 1...120 {
            let along = max(0, 5 * (Double(second) - 20))
            let progress = try tracker.update(Fix(coordinate: course.coordinate(stage: 0, along: along), time: Double(second)))
            #expect(progress.onRoute, "fix \(second) flagged off")
            worst = max(worst, abs(progress.distance - along))
        }
        #expect(worst <= 20, "\(Int(worst)) m from the rider")
    }

    /// Rides of fresh seeds whose detour was never flagged: the rider walked off at 4 m/s and the
    /// filter's drift followed them out to 3σ, fix by fix. Fixes 8-20 s apart show it: they moved
    /// across the way further than drift moves them in that time, and were still moving.
    @Test(
        "a detour the filter's drift followed out is flagged within 3 fixes of the rider being 60 m off, by how far the fixes moved across",
        arguments: [(0, 70_217), (6, 70_093), (8, 70_248), (22, 70_186)])
    func flaggedByHowTheFixesMoved(ride index: Int, seed offset: UInt64) throws {
        var ride = RideCase.all[index]
        ride.seed = ride.seed &+ offset
        let delays = try RideOutcome(ride.ride()).detourDelays
        #expect(delays?.flagged.map { $0 <= 3 } ?? false, "\(ride): flagged +\(delays?.flagged.map(String.init) ?? "never")")
    }

    /// Rides of fresh seeds where the rider was found again on the way back across the way, 50 m
    /// out, the drift taking the walk for its own; at the course's edge they were off again, the
    /// drift now on the far side, and back on only 5-13 fixes after reaching it. The fixes came in
    /// from the side the rider left to, across the way, and stopped: they are back.
    @Test(
        "found again too soon on the way back, the rider is back on within 3 fixes of reaching the course",
        arguments: [(10, 5_031), (26, 5_062), (44, 5_217), (50, 5_031), (58, 5_031)])
    func backAfterBeingFoundTooSoon(ride index: Int, seed offset: UInt64) throws {
        var ride = RideCase.all[index]
        ride.seed = ride.seed &+ offset
        let delays = try RideOutcome(ride.ride()).detourDelays
        #expect(delays?.rejoined.map { $0 <= 3 } ?? false, "\(ride): back +\(delays?.rejoined.map(String.init) ?? "never")")
    }
}
