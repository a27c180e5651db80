import Foundation
import RouteModel
import RoutePlacement
import MarkerSpec
import TestSupport
import Testing

@Suite("Placing markers on the map")
struct ScreenPlacementTests {
    /// A pill `width` points wide with its dot, laid out as MARKER.md has it: the pill 20pt tall with
    /// its bottom 2pt above the anchor, the 6pt dot centred on it.
    static func footprint(width: Double) -> MarkerFootprint {
        MarkerFootprint(
            pill: .init(left: -width / 2, top: -22, right: width / 2, bottom: -2), dot: .init(left: -3, top: -3, right: 3, bottom: 3))
    }

    /// The placement spelled out: at each zoom, every candidate not yet shown, most important first,
    /// checked against every one shown.
    static func bruteForce(_ candidates: [ScreenPlacement.Candidate], order: [Int]) -> [Int] {
        var minzoom = [Int](repeating: ScreenPlacement.never, count: candidates.count)
        for zoom in ScreenPlacement.zooms {
            for index in order where minzoom[index] == ScreenPlacement.never {
                let clear = candidates.indices.allSatisfy { other in
                    minzoom[other] > zoom || !ScreenPlacement.conflict(candidates[index], candidates[other], zoom: zoom)
                }
                // A picture wider than the world meets its own copy.
                let fitsTheWorld = candidates[index].footprint.bounds.width + ScreenPlacement.gap <= 512 * Double(1 << zoom)
                if clear && fitsTheWorld { minzoom[index] = zoom }
            }
        }
        return minzoom
    }

    /// Random markers in clusters of every density, some across the antimeridian and at the
    /// Mercator plane's edges, some on the very same point, of widths from the narrowest pill to a
    /// combined marker of six parts.
    static func scatter(seed: UInt64, count: Int) -> [ScreenPlacement.Candidate] {
        var random = SeededGenerator(seed: seed)
        let spreads = [1e-7, 1e-5, 1e-3, 0.1, 10]
        var candidates: [ScreenPlacement.Candidate] = []
        while candidates.count < count {
            let centre = (x: Double.random(in: 0..<512, using: &random), y: Double.random(in: 0...512, using: &random))
            let near = [(0.0, centre.y), (511.9999, centre.y), (centre.x, 0), (centre.x, 512), centre].randomElement(using: &random) ?? centre
            let spread = spreads.randomElement(using: &random) ?? 1
            for _ in 0..<Int.random(in: 1...40, using: &random) {
                var x = near.0 + Double.random(in: -spread...spread, using: &random)
                x = x < 0 ? x + 512 : x >= 512 ? x - 512 : x
                let y = min(512, max(0, near.1 + Double.random(in: -spread...spread, using: &random)))
                let width =
                    Bool.random(using: &random)
                    ? Double.random(in: 28...80, using: &random) : [28, 44, 330, 505, 600].randomElement(using: &random) ?? 28
                candidates.append(ScreenPlacement.Candidate(x: x, y: y, footprint: footprint(width: width)))
                if Int.random(in: 0..<10, using: &random) == 0, let last = candidates.last { candidates.append(last) }
            }
        }
        return Array(candidates.prefix(count))
    }

    @Test("the grid and the sleeping candidates give exactly what checking every pair at every zoom gives", arguments: 1...12)
    func matchesBruteForce(seed: UInt64) {
        let candidates = Self.scatter(seed: seed, count: 300)
        var random = SeededGenerator(seed: seed + 1000)
        let order = Array(candidates.indices).shuffled(using: &random)
        let placed = ScreenPlacement.minzooms(of: candidates, order: order)
        #expect(placed == Self.bruteForce(candidates, order: order))
        #expect(placed.contains { $0 > 0 && $0 <= 22 }, "the scatter exercises zooms between the first and the last")
    }

    @Test("no two pictures shown at a zoom come within the gap, and none is hidden in open space", arguments: 20...23)
    func placementInvariants(seed: UInt64) {
        let candidates = Self.scatter(seed: seed, count: 400)
        let placed = ScreenPlacement.minzooms(of: candidates, order: Array(candidates.indices))
        for zoom in ScreenPlacement.zooms {
            let shown = candidates.indices.filter { placed[$0] <= zoom }
            for first in shown {
                for second in shown where second > first {
                    #expect(!ScreenPlacement.conflict(candidates[first], candidates[second], zoom: zoom), "zoom \(zoom): \(first) and \(second)")
                }
            }
            for hidden in candidates.indices where placed[hidden] > zoom {
                let blocked = shown.contains { ScreenPlacement.conflict(candidates[hidden], candidates[$0], zoom: zoom) }
                let tooWide = candidates[hidden].footprint.bounds.width + ScreenPlacement.gap > 512 * Double(1 << zoom)
                #expect(blocked || tooWide, "zoom \(zoom): \(hidden) is hidden with room to show")
            }
        }
    }

    @Test("two pills side by side at the equator part at the zoom their widths and the gap say")
    func pairPartsWhereExpected() {
        // 1 km apart east-west at the equator: 512·2^z / 40,075 km points per km.
        let metresPerDegree = 40_075_016.686 / 360
        let east = 1000 / metresPerDegree
        let a = WebMercator.point(Coordinate(latitude: 0, longitude: 10))
        let b = WebMercator.point(Coordinate(latitude: 0, longitude: 10 + east))
        let candidates = [a, b].map { ScreenPlacement.Candidate(x: $0.x, y: $0.y, footprint: Self.footprint(width: 40)) }
        let placed = ScreenPlacement.minzooms(of: candidates, order: [0, 1])
        // 40 points of pill and 2 of gap need 42 points: 1 km is 42 points from 2^z ≥ 42·40075/512 ≈ 3287.
        #expect(placed == [0, 12])
        for zoom in 0...22 {
            #expect(ScreenPlacement.conflict(candidates[0], candidates[1], zoom: zoom) == (zoom < 12))
        }
    }

    @Test("pictures on the two sides of the antimeridian are neighbours")
    func antimeridian() {
        let west = WebMercator.point(Coordinate(latitude: 10, longitude: 179.9999))
        let east = WebMercator.point(Coordinate(latitude: 10, longitude: -179.9999))
        let candidates = [west, east].map { ScreenPlacement.Candidate(x: $0.x, y: $0.y, footprint: Self.footprint(width: 40)) }
        #expect(ScreenPlacement.conflict(candidates[0], candidates[1], zoom: 10))
        let placed = ScreenPlacement.minzooms(of: candidates, order: [0, 1])
        #expect(placed[0] == 0 && placed[1] > 10)
    }

    @Test("markers on one point: the first shows at zoom 0, the rest at no zoom")
    func samePoint() {
        let candidates = Array(repeating: ScreenPlacement.Candidate(x: 100, y: 100, footprint: Self.footprint(width: 30)), count: 50)
        let placed = ScreenPlacement.minzooms(of: candidates, order: Array((0..<50).reversed()))
        #expect(placed[49] == 0)
        #expect(placed.dropLast().allSatisfy { $0 == ScreenPlacement.never })
    }

    @Test("Web Mercator: the world's corners, the equator and the latitudes past Mercator's reach")
    func mercator() {
        #expect(WebMercator.point(Coordinate(latitude: 0, longitude: 0)) == (256, 256))
        #expect(WebMercator.point(Coordinate(latitude: 0, longitude: -180)).x == 0)
        #expect(WebMercator.point(Coordinate(latitude: 0, longitude: 180)).x == 0)
        #expect(abs(WebMercator.point(Coordinate(latitude: 85.0511287798, longitude: 0)).y) < 1e-6)
        #expect(WebMercator.point(Coordinate(latitude: 89, longitude: 0)).y == 0)
        #expect(WebMercator.point(Coordinate(latitude: -90, longitude: 0)).y == 512)
    }

    @Test(
        "the ladder: each step's next finer divides it, and a count starts at the largest step it holds",
        arguments: [
            (10, 5), (20, 10), (50, 10), (100, 50), (5, 1), (2, 1), (200, 100), (500, 100), (1000, 500), (5000, 1000),
        ])
    func ladder(step: Int, finer: Int) {
        #expect(StepLadder.finer(step) == finer)
        #expect(StepLadder.contains(step) && StepLadder.contains(finer))
    }

    @Test("where a count starts splitting", arguments: [(1...601, 500), (1...86, 50), (1...9, 5), (9...15, 10), (1...1, 1), (11...19, 5), (3...4, 2)])
    func coarsest(range: ClosedRange<Int>, step: Int) {
        #expect(StepLadder.coarsest(in: range) == step)
        #expect(StepLadder.finer(1) == nil && !StepLadder.contains(3) && !StepLadder.contains(25))
    }

    /// Counted markers every `spacing` points east along a line at zoom 0, one stage, with a start at 0.
    static func line(markers: Int, spacing: Double) -> [ScreenPlacement.Candidate] {
        var candidates = [ScreenPlacement.Candidate(x: 100, y: 200, footprint: footprint(width: 40))]
        for step in 1...markers {
            candidates.append(
                ScreenPlacement.Candidate(
                    x: 100 + Double(step) * spacing, y: 200 + 0.3 * sin(Double(step)) * spacing, footprint: footprint(width: 36),
                    count: .init(stage: 1, step: step)))
        }
        return candidates
    }

    /// Neighbouring shown steps (0 first) at `zoom` that are not both multiples of a ladder step with
    /// nothing of the stage between them shown (there is no other marker to excuse a hidden one).
    static func uneven(_ minzooms: [Int], zoom: Int) -> [(Int, Int)] {
        let shown = [0] + (1..<minzooms.count).filter { minzooms[$0] <= zoom }
        return zip(shown, shown.dropFirst()).filter { low, high in
            ![1, 2, 5, 10, 20, 50, 100, 200, 500].contains { low % $0 == 0 && high % $0 == 0 && high - low == $0 }
        }
    }

    @Test("a long line's distance markers read in even steps at every zoom, where placing each as it fits did not")
    func evenStepsOnALine() {
        let candidates = Self.line(markers: 600, spacing: 0.004)
        let order = Array(candidates.indices)
        let even = ScreenPlacement.minzooms(of: candidates, order: order)
        var greedy = candidates
        for index in greedy.indices { greedy[index].count = nil }
        let asItFits = ScreenPlacement.minzooms(of: greedy, order: MarkerPlanLadder.roundestFirst(600))
        var unevenBefore = 0
        for zoom in ScreenPlacement.zooms {
            #expect(Self.uneven(even, zoom: zoom).isEmpty, "zoom \(zoom): \(Self.uneven(even, zoom: zoom).prefix(5))")
            unevenBefore += Self.uneven(asItFits, zoom: zoom).count
        }
        #expect(unevenBefore > 0, "placing each marker as it fits made even steps too: the check shows nothing")
        #expect(even.allSatisfy { $0 <= 22 })
    }

    @Test("turned: two pictures meet at some bearing exactly when sampling every 0.25° finds a bearing where they do", arguments: 1...6)
    func turnedReach(seed: UInt64) {
        var random = SeededGenerator(seed: seed)
        for _ in 0..<300 {
            let a = ScreenPlacement.Candidate(x: 256, y: 256, footprint: Self.footprint(width: Double.random(in: 28...120, using: &random)))
            let angle = Double.random(in: 0..<(2 * .pi), using: &random)
            let distance = Double.random(in: 0...140, using: &random) / 512
            let b = ScreenPlacement.Candidate(
                x: 256 + distance * cos(angle), y: 256 + distance * sin(angle), footprint: Self.footprint(width: Double.random(in: 28...120, using: &random)))
            let exact = ScreenPlacement.conflict(a, b, zoom: 9, rotation: .courseUp)
            /// Whether b, its offset from a scaled by `scale`, meets a at a sampled bearing.
            func sampled(_ scale: Double) -> Bool {
                stride(from: 0.0, to: 360, by: 0.25).contains { bearing in
                    let (sine, cosine) = (sin(bearing * .pi / 180), cos(bearing * .pi / 180))
                    let (dx, dy) = ((b.x - a.x) * scale, (b.y - a.y) * scale)
                    var turned = b
                    turned.x = a.x + dx * cosine + dy * sine
                    turned.y = a.y - dx * sine + dy * cosine
                    return ScreenPlacement.conflict(a, turned, zoom: 9)
                }
            }
            if sampled(1) { #expect(exact, "a sampled bearing meets, the exact reach says none does") }
            // Sampling misses only slivers at the edge of the reach: 1% nearer, it finds one.
            if exact && !sampled(1) { #expect(sampled(0.99), "the exact reach says they meet, no bearing near it does") }
            #expect(ScreenPlacement.conflict(a, b, zoom: 9) ? exact : true, "north up meets, so turned must")
        }
    }
}

/// The order the placement used before even steps: the roundest readings first.
enum MarkerPlanLadder {
    static func roundestFirst(_ markers: Int) -> [Int] {
        let roundnesses = [100, 50, 10, 5, 2, 1]
        let counted = (1...markers).sorted { first, second in
            let (a, b) = (roundnesses.firstIndex { first % $0 == 0 } ?? 6, roundnesses.firstIndex { second % $0 == 0 } ?? 6)
            return a != b ? a < b : first < second
        }
        return [0] + counted
    }
}
