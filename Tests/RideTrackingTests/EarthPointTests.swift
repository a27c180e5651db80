import Foundation
import RideTracking
import RouteModel
import Testing

/// Fixes become Earth-centred points from the last fix's sines: as exact as the sines themselves.
@Suite("Earth-centred points of a rider's fixes")
struct EarthPointTests {
    struct Walk: Sendable, CustomTestStringConvertible {
        var testDescription: String
        var start: Coordinate
        /// Metres a step, at most; every 500th step jumps this many degrees.
        var step: Double
        var jump: Double
    }

    static let walks = [
        Walk(testDescription: "on the equator, 5 m steps", start: Coordinate(latitude: 0, longitude: 10), step: 5, jump: 0),
        Walk(testDescription: "across the antimeridian at 60° N, 50 m steps", start: Coordinate(latitude: 60, longitude: 179.99), step: 50, jump: 0),
        Walk(testDescription: "by the pole, 89.99° N, 20 m steps", start: Coordinate(latitude: 89.99, longitude: -30), step: 20, jump: 0),
        Walk(testDescription: "45° S, 10 m steps with 0.5° jumps", start: Coordinate(latitude: -45, longitude: 170), step: 10, jump: 0.5),
    ]

    @Test("20,000 fixes of a walk: every point within a micrometre of its own trigonometry", arguments: walks)
    func converterMatchesTrigonometry(walk: Walk) {
        var converter = EarthPoint.Converter()
        var generator = SplitMix(seed: 42)
        var (latitude, longitude) = (walk.start.latitude, walk.start.longitude)
        var worst = 0.0
        for index in 0..<20_000 {
            let metres = walk.step * generator.unit()
            let bearing = 2 * Double.pi * generator.unit()
            latitude = min(max(latitude + metres * cos(bearing) / 111_000, -89.999), 89.999)
            longitude += metres * sin(bearing) / 111_000 / max(cos(latitude * .pi / 180), 0.01)
            if walk.jump > 0, index % 500 == 499 { longitude += walk.jump }
            if longitude > 180 { longitude -= 360 } else if longitude < -180 { longitude += 360 }
            let coordinate = Coordinate(latitude: latitude, longitude: longitude)
            worst = max(worst, converter.point(coordinate).distance(to: EarthPoint(coordinate)))
        }
        #expect(worst < 1e-6, "\(worst) m")
    }

    /// A small deterministic generator, so a failure repeats.
    struct SplitMix {
        var state: UInt64
        init(seed: UInt64) { state = seed }
        mutating func unit() -> Double {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return Double((z ^ (z >> 31)) >> 11) / Double(1 << 53)
        }
    }
}
