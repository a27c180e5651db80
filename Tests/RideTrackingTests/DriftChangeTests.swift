import RideTracking
import RouteModel
import TestSupport
import Testing

@Suite("Back on the course after a detour, when the drift changed while away")
struct DriftChangeTests {
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
}
