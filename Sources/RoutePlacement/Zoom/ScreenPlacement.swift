public import MarkerSpec

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import RouteModel

/// Which zooms show which markers, worked out on the map itself, as a cartographer places labels.
///
/// From zoom 0 in, each zoom adds markers whose pictures fit: a picture neither overlaps nor comes
/// within `gap` points of one shown at that zoom. A marker once shown stays shown further in, since
/// zooming in only moves pictures apart, so its zooms are one `minzoom`. Positions are on the Web
/// Mercator plane of MapLibre and Mapbox GL (512-point tiles), in points, so one placement serves
/// every theme and scale.
///
/// Two kinds of marker are placed two ways:
/// - **Markers without a count** (starts, ends, combined markers) go first at each zoom, most
///   important first, each as soon as it fits: hidden only where it would meet one shown.
/// - **Counted markers** (distance and countdown) show in even steps of their stage's count
///   (`StepLadder`): between two neighbours every multiple of their step is hidden only because it
///   would meet a marker without a count or another stage's. A gap between neighbours splits by the
///   next finer step that divides its own, at the first zoom at which all that step's markers in it
///   fit; one whose markers all meet such markers gives way to the step after. A marker left hidden
///   that way keeps its room among its stage's, and shows as soon as nothing is in its way.
///
/// With `Rotation.courseUp` the map may turn about its centre while the pictures stay upright, as
/// MapLibre's `icon-rotation-alignment: viewport` draws them: two pictures meet if they meet at any
/// bearing, that is if their anchors lie closer than the farthest reach of their boxes.
///
/// The work is near-linear: a candidate is checked only against the pictures in the grid cells
/// around it, and one that is blocked sleeps until the zoom at which what blocked it is clear.
public enum ScreenPlacement {
    /// Points kept clear between any two pictures shown at one zoom: MapLibre's default icon padding.
    public static let gap = 2.0
    /// The zooms placed, MapLibre's and Mapbox GL's usual range.
    public static let zooms = ZoomTable.zooms
    /// The `minzoom` of a marker that fits at no zoom of `zooms` (only where more readings meet
    /// within metres than one combined marker holds).
    public static let never = zooms.upperBound + 1

    /// How the map may turn under the pictures.
    public enum Rotation: String, Sendable, CaseIterable {
        /// North always up: pictures meet as they lie.
        case northUp = "north-up"
        /// Turned to the direction of travel, so any bearing: pictures meet if they meet at some bearing.
        case courseUp = "course-up"
    }

    /// Where a counted marker stands in its stage's count.
    public struct Count: Sendable, Hashable {
        /// Which stage's count (any number, the same for one stage's markers).
        public var stage: Int
        /// Its reading in intervals: 1, 2, 3 … from the stage's start at 0 (or counting across stages).
        public var step: Int

        public init(stage: Int, step: Int) {
            self.stage = stage
            self.step = step
        }
    }

    /// A marker to place: where its anchor lies and where its picture is opaque.
    public struct Candidate: Sendable, Equatable {
        /// `WebMercator.point` of the marker's coordinate: points at zoom 0.
        public var x: Double
        public var y: Double
        public var footprint: MarkerFootprint
        /// For a distance or countdown marker, its place in its stage's count; nil for the rest.
        public var count: Count?

        public init(x: Double, y: Double, footprint: MarkerFootprint, count: Count? = nil) {
            self.x = x
            self.y = y
            self.footprint = footprint
            self.count = count
        }
    }

    /// The first zoom at which each of `candidates` shows (`never` if none), in their order;
    /// `order` lists every candidate's index once, the most important first (it orders the markers
    /// without a count; counted markers go by their steps). With `notBefore`, a candidate shows no
    /// sooner than its entry there (the course-up placement waits for the north-up one).
    public static func minzooms(of candidates: [Candidate], order: [Int], rotation: Rotation = .northUp, notBefore: [Int]? = nil) -> [Int] {
        precondition(order.count == candidates.count, "order lists every candidate once")
        precondition(notBefore.map { $0.count == candidates.count } ?? true, "notBefore has an entry per candidate")
        var placer = Placer(
            candidates: order.map { candidates[$0] }, rotation: rotation, notBefore: notBefore.map { limits in order.map { limits[$0] } })
        let placed = placer.place()
        var result = [Int](repeating: never, count: candidates.count)
        for (position, index) in order.enumerated() { result[index] = placed[position] }
        return result
    }

    /// Whether two placed pictures come within `gap` of each other at `zoom`, over the nearest copies
    /// of the world (a map repeats it east and west); with `courseUp`, at some bearing.
    public static func conflict(_ first: Candidate, _ second: Candidate, zoom: Int, rotation: Rotation = .northUp) -> Bool {
        Item(first, rotation: rotation).conflicts(with: Item(second, rotation: rotation), scale: scale(zoom))
    }

    /// How much wider the world is at `zoom` than at zoom 0, exactly.
    static func scale(_ zoom: Int) -> Double { Double(1 << zoom) }
}

extension ScreenPlacement {
    /// A candidate with its boxes, as the checks read them.
    struct Item {
        var x: Double
        var y: Double
        var pill: MarkerFootprint.Box
        var dot: MarkerFootprint.Box
        var bounds: MarkerFootprint.Box
        /// What the grid files it under: its bounds, or turning, the square its boxes reach in any bearing.
        var area: MarkerFootprint.Box
        var rotation: Rotation

        init(_ candidate: Candidate, rotation: Rotation) {
            x = candidate.x
            y = candidate.y
            pill = candidate.footprint.pill
            dot = candidate.footprint.dot
            bounds = candidate.footprint.bounds
            self.rotation = rotation
            switch rotation {
            case .northUp:
                area = bounds
            case .courseUp:
                let reach = max(hypot(bounds.left, bounds.top), hypot(bounds.right, bounds.top), hypot(bounds.left, bounds.bottom), hypot(bounds.right, bounds.bottom))
                area = MarkerFootprint.Box(left: -reach, top: -reach, right: reach, bottom: reach)
            }
        }

        /// How far beyond the areas the grid must look: the gap, and turning, its diagonal.
        var searchMargin: Double { rotation == .northUp ? gap : 2 * gap }

        /// Whether `other`, with its anchor `dx`, `dy` points from this one's, comes within the gap.
        @inline(__always)
        func conflicts(with other: Item, dx: Double, dy: Double) -> Bool {
            switch rotation {
            case .northUp:
                @inline(__always)
                func near(_ a: MarkerFootprint.Box, _ b: MarkerFootprint.Box) -> Bool {
                    dx + b.left < a.right + gap && a.left < dx + b.right + gap && dy + b.top < a.bottom + gap && a.top < dy + b.bottom + gap
                }
                guard near(bounds, other.bounds) else { return false }
                return near(pill, other.pill) || near(pill, other.dot) || near(dot, other.pill) || near(dot, other.dot)
            case .courseUp:
                // The areas' half-widths are the pictures' reaches: farther apart than both and the gap, clear.
                let distance = dx * dx + dy * dy
                let far = area.right + other.area.right + 2 * gap
                return distance < far * far && distance < turnedReachSquared(other)
            }
        }

        /// The square of the distance between anchors below which the two pictures meet at some
        /// bearing. Turning moves `other`'s anchor round a circle about this one's; the offsets at
        /// which two upright boxes come within the gap form a box, and each of the four such boxes
        /// (pill or dot against pill or dot) holds the anchor's own place, so the circle meets it
        /// exactly while it is smaller than the box's farthest corner.
        @inline(__always)
        func turnedReachSquared(_ other: Item) -> Double {
            @inline(__always)
            func farthest(_ a: MarkerFootprint.Box, _ b: MarkerFootprint.Box) -> Double {
                let x = max(b.right - a.left + gap, a.right - b.left + gap)
                let y = max(b.bottom - a.top + gap, a.bottom - b.top + gap)
                return x * x + y * y
            }
            return max(farthest(pill, other.pill), farthest(pill, other.dot), farthest(dot, other.pill), farthest(dot, other.dot))
        }

        /// Points east from this anchor to `other`'s at zoom 0, in the nearest copy of the world
        /// (a map repeats it east and west).
        func eastward(to other: Item) -> Double {
            let world = WebMercator.worldSize
            let dx = other.x - x
            return dx > world / 2 ? dx - world : dx < -world / 2 ? dx + world : dx
        }

        /// Whether `other` comes within the gap at `scale` (the world's width over 512), in the
        /// nearest copy of the world or the next (which only the widest pictures reach, at zoom 0).
        func conflicts(with other: Item, scale: Double) -> Bool {
            let dx = eastward(to: other)
            let dy = (other.y - y) * scale
            if conflicts(with: other, dx: dx * scale, dy: dy) { return true }
            let far = (dx > 0 ? dx - WebMercator.worldSize : dx + WebMercator.worldSize) * scale
            return abs(far) < area.width + other.area.width + 2 * searchMargin && conflicts(with: other, dx: far, dy: dy)
        }

        /// The scale from which `other` stays clear in the nearest copy of the world: a lower
        /// bound of where it stops blocking.
        func clearingScale(from other: Item) -> Double {
            let dx = eastward(to: other)
            let dy = other.y - y
            switch rotation {
            case .courseUp:
                let distance = hypot(dx, dy)
                return distance > 0 ? turnedReachSquared(other).squareRoot() / distance : .infinity
            case .northUp:
                /// From which scale `distance × scale ≥ needed` holds.
                func from(_ needed: Double, _ distance: Double) -> Double {
                    needed <= 0 ? 0 : distance > 0 ? needed / distance : .infinity
                }
                func clearing(_ a: MarkerFootprint.Box, _ b: MarkerFootprint.Box) -> Double {
                    min(
                        from(a.right - b.left + gap, dx), from(b.right - a.left + gap, -dx),
                        from(a.bottom - b.top + gap, dy), from(b.bottom - a.top + gap, -dy))
                }
                return max(clearing(pill, other.pill), clearing(pill, other.dot), clearing(dot, other.pill), clearing(dot, other.dot))
            }
        }

        /// The first zoom after `zoom` at which `blocker` no longer comes within the gap of this
        /// item (`never` if none): from the estimate, checked zoom by zoom.
        func clearingZoom(from blocker: Item, after zoom: Int) -> Int {
            let clearing = clearingScale(from: blocker)
            // One zoom below the estimate, so that rounding in it never skips the zoom it clears at.
            var next = zoom + 1
            if clearing.isFinite, clearing > 1 { next = max(next, Int(log2(clearing).rounded(.up)) - 1) }
            if clearing.isInfinite { next = max(next, zooms.upperBound) }
            while next <= zooms.upperBound && conflicts(with: blocker, scale: scale(next)) { next += 1 }
            return next
        }
    }
}
