public import MarkerSpec

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Which zooms show which markers, worked out on the map itself, as a cartographer places labels.
///
/// From zoom 0 in, each zoom adds, most important first, every marker not yet shown whose picture
/// fits: it neither overlaps nor comes within `gap` points of a picture shown at that zoom. A marker
/// once shown stays shown further in, since zooming in only moves pictures apart, so its zooms are
/// one `minzoom`; and it is hidden at a zoom only where it would overlap, or come within the gap of,
/// one shown there. Positions are on the Web Mercator plane of MapLibre and Mapbox GL (512-point
/// tiles), in points, so one placement serves every theme and scale.
///
/// The work is near-linear: a candidate is checked only against the pictures shown in the grid cells
/// around it (pictures shown at one zoom never overlap, so a cell holds few), and one that is blocked
/// sleeps until the zoom at which every picture that blocked it has moved clear.
public enum ScreenPlacement {
    /// Points kept clear between any two pictures shown at one zoom: MapLibre's default icon padding.
    public static let gap = 2.0
    /// The zooms placed, MapLibre's and Mapbox GL's usual range.
    public static let zooms = ZoomTable.zooms
    /// The `minzoom` of a marker that fits at no zoom of `zooms` (only where more readings meet
    /// within metres than one combined marker holds).
    public static let never = zooms.upperBound + 1

    /// A marker to place: where its anchor lies and where its picture is opaque.
    public struct Candidate: Sendable, Equatable {
        /// `WebMercator.point` of the marker's coordinate: points at zoom 0.
        public var x: Double
        public var y: Double
        public var footprint: MarkerFootprint

        public init(x: Double, y: Double, footprint: MarkerFootprint) {
            self.x = x
            self.y = y
            self.footprint = footprint
        }
    }

    /// The first zoom at which each of `candidates` shows (`never` if none), in their order;
    /// `order` lists every candidate's index once, the most important first.
    public static func minzooms(of candidates: [Candidate], order: [Int]) -> [Int] {
        precondition(order.count == candidates.count, "order lists every candidate once")
        var placer = Placer(candidates: order.map { candidates[$0] })
        let placed = placer.place()
        var result = [Int](repeating: never, count: candidates.count)
        for (position, index) in order.enumerated() { result[index] = placed[position] }
        return result
    }

    /// Whether two placed pictures come within `gap` of each other at `zoom`, over the nearest copies
    /// of the world (a map repeats it east and west).
    public static func conflict(_ first: Candidate, _ second: Candidate, zoom: Int) -> Bool {
        Placer.Item(first).conflicts(with: Placer.Item(second), scale: scale(zoom))
    }

    /// How much wider the world is at `zoom` than at zoom 0, exactly.
    static func scale(_ zoom: Int) -> Double { Double(1 << zoom) }
}

extension ScreenPlacement {
    /// The placement itself, over candidates in priority order.
    struct Placer {
        /// A candidate with its boxes, as the checks read them.
        struct Item {
            var x: Double
            var y: Double
            var pill: MarkerFootprint.Box
            var dot: MarkerFootprint.Box
            var bounds: MarkerFootprint.Box

            init(_ candidate: Candidate) {
                x = candidate.x
                y = candidate.y
                pill = candidate.footprint.pill
                dot = candidate.footprint.dot
                bounds = candidate.footprint.bounds
            }

            /// Whether `other`, with its anchor `dx`, `dy` points from this one's, comes within the gap.
            @inline(__always)
            func conflicts(with other: Item, dx: Double, dy: Double) -> Bool {
                @inline(__always)
                func near(_ a: MarkerFootprint.Box, _ b: MarkerFootprint.Box) -> Bool {
                    dx + b.left < a.right + gap && a.left < dx + b.right + gap && dy + b.top < a.bottom + gap && a.top < dy + b.bottom + gap
                }
                guard near(bounds, other.bounds) else { return false }
                return near(pill, other.pill) || near(pill, other.dot) || near(dot, other.pill) || near(dot, other.dot)
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
                return abs(far) < bounds.width + other.bounds.width + 2 * gap && conflicts(with: other, dx: far, dy: dy)
            }

            /// The scale from which `other` stays clear in the nearest copy of the world: a lower
            /// bound of where it stops blocking, worked out box by box and axis by axis.
            func clearingScale(from other: Item) -> Double {
                let dx = eastward(to: other)
                let dy = other.y - y
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

        /// The candidates, most important first.
        let items: [Item]
        private var grid = CellGrid()

        init(candidates: [Candidate]) {
            items = candidates.map(Item.init)
        }

        /// The first zoom each item shows at, by position.
        mutating func place() -> [Int] {
            let count = items.count
            var minzoom = [Int](repeating: never, count: count)
            // Each zoom's candidates: those that may fit there. A blocked one waits for the zoom at
            // which its blockers are clear of it; it is certain not to fit before.
            var waiting = [[Int32]](repeating: [], count: zooms.count)
            for position in 0..<count {
                // A picture wider than the world would meet its own copy.
                var zoom = zooms.lowerBound
                while zoom <= zooms.upperBound && scale(zoom) * WebMercator.worldSize < items[position].bounds.width + gap { zoom += 1 }
                if zoom <= zooms.upperBound { waiting[zoom].append(Int32(position)) }
            }
            var shown: [Int32] = []
            shown.reserveCapacity(count)
            var lastQuery = [Int32](repeating: -1, count: count)
            var query: Int32 = 0
            for zoom in zooms where !waiting[zoom].isEmpty {
                var candidates = waiting[zoom]
                waiting[zoom] = []
                candidates.sort()
                let scale = ScreenPlacement.scale(zoom)
                grid.reset(zoom: zoom, entries: shown.count + candidates.count)
                for position in shown { grid.insert(position, items[Int(position)], scale: scale) }
                for position in candidates {
                    let item = items[Int(position)]
                    query &+= 1
                    var clearFrom = zoom
                    grid.forEachNear(item, scale: scale) { other in
                        guard lastQuery[Int(other)] != query else { return }
                        lastQuery[Int(other)] = query
                        let blocker = items[Int(other)]
                        if item.conflicts(with: blocker, scale: scale) {
                            clearFrom = max(clearFrom, Self.clearingZoom(item, blocker, after: zoom))
                        }
                    }
                    if clearFrom == zoom {
                        minzoom[Int(position)] = zoom
                        shown.append(position)
                        grid.insert(position, item, scale: scale)
                    } else if clearFrom <= zooms.upperBound {
                        waiting[clearFrom].append(position)
                    }
                }
            }
            return minzoom
        }

        /// The first zoom after `zoom` at which `blocker` no longer comes within the gap of `item`
        /// (`never` if none): from the box-by-box estimate, checked zoom by zoom.
        static func clearingZoom(_ item: Item, _ blocker: Item, after zoom: Int) -> Int {
            let clearing = item.clearingScale(from: blocker)
            // One zoom below the estimate, so that rounding in it never skips the zoom it clears at.
            var next = zoom + 1
            if clearing.isFinite, clearing > 1 { next = max(next, Int(log2(clearing).rounded(.up)) - 1) }
            if clearing.isInfinite { next = max(next, zooms.upperBound) }
            while next <= zooms.upperBound && item.conflicts(with: blocker, scale: scale(next)) { next += 1 }
            return next
        }
    }
}

extension ScreenPlacement {
    /// Pictures by the square cells of one zoom's plane they cover, in an open-addressed table
    /// cleared by generation, so each zoom reuses the storage of the last.
    struct CellGrid {
        /// About the width of a distance marker: most pictures cover one to four cells.
        static let cellSize = 64.0

        /// A cell's key and the first of its entries, together so that a probe reads one cache line.
        private struct Slot {
            var key: Int64
            var head: Int32
            /// The slot holds a key this zoom only if this is the grid's generation.
            var generation: UInt32
        }

        /// One position in a cell, and the cell's next entry (-1 for none).
        private struct Entry {
            var position: Int32
            var next: Int32
        }

        private var slots: [Slot] = []
        private var generation: UInt32 = 0
        private var occupied = 0
        private var entries: [Entry] = []
        /// Cells across the world at this zoom: column numbers wrap at the antimeridian.
        private var columns = 1

        /// Empties the grid for `zoom`, with room for about `entries` cell entries.
        mutating func reset(zoom: Int, entries expected: Int) {
            columns = Int(WebMercator.worldSize / Self.cellSize) << zoom
            var capacity = max(64, slots.count)
            while capacity < 2 * expected { capacity *= 2 }
            if capacity != slots.count {
                slots = [Slot](repeating: Slot(key: 0, head: -1, generation: 0), count: capacity)
                generation = 0
            }
            generation &+= 1
            if generation == 0 {
                // Wrapped: every slot's old generation could read as current.
                for index in slots.indices { slots[index].generation = 0 }
                generation = 1
            }
            occupied = 0
            entries.removeAll(keepingCapacity: true)
        }

        mutating func insert(_ position: Int32, _ item: Placer.Item, scale: Double) {
            Self.forEachCell(of: item.bounds, x: item.x * scale, y: item.y * scale, margin: 0, columns: columns) { key in
                let slot = addingSlot(for: key)
                entries.append(Entry(position: position, next: slots[slot].head))
                slots[slot].head = Int32(entries.count - 1)
            }
        }

        /// Calls `body` with every position in the cells within the gap of `item` (some more than once).
        func forEachNear(_ item: Placer.Item, scale: Double, _ body: (Int32) -> Void) {
            Self.forEachCell(of: item.bounds, x: item.x * scale, y: item.y * scale, margin: gap, columns: columns) { key in
                let slot = slot(for: key)
                guard slot >= 0 else { return }
                var entry = slots[slot].head
                while entry >= 0 {
                    body(entries[Int(entry)].position)
                    entry = entries[Int(entry)].next
                }
            }
        }

        /// Every cell a box at (`x`, `y`) on a plane `columns` cells wide covers, grown by `margin`.
        private static func forEachCell(
            of box: MarkerFootprint.Box, x: Double, y: Double, margin: Double, columns: Int, _ body: (Int64) -> Void
        ) {
            let size = Self.cellSize
            let left = Int(((x + box.left - margin) / size).rounded(.down))
            let right = Int(((x + box.right + margin) / size).rounded(.down))
            let top = Int(((y + box.top - margin) / size).rounded(.down))
            let bottom = Int(((y + box.bottom + margin) / size).rounded(.down))
            let wrapsWholeWorld = right - left + 1 >= columns
            for row in top...bottom {
                for column in (wrapsWholeWorld ? 0 : left)...(wrapsWholeWorld ? columns - 1 : right) {
                    var wrapped = column % columns
                    if wrapped < 0 { wrapped += columns }
                    // Rows run from -1 (pictures over the world's top edge) to a little past the bottom.
                    body(Int64(row + 2) << 32 | Int64(wrapped))
                }
            }
        }

        /// The slot of `key`, made if it has none.
        private mutating func addingSlot(for key: Int64) -> Int {
            if 2 * (occupied + 1) > slots.count { grow() }
            let mask = slots.count - 1
            var slot = Self.hash(key) & mask
            while slots[slot].generation == generation {
                if slots[slot].key == key { return slot }
                slot = (slot + 1) & mask
            }
            slots[slot] = Slot(key: key, head: -1, generation: generation)
            occupied += 1
            return slot
        }

        /// The slot of `key`, or -1 if it has none.
        private func slot(for key: Int64) -> Int {
            let mask = slots.count - 1
            var slot = Self.hash(key) & mask
            while slots[slot].generation == generation {
                if slots[slot].key == key { return slot }
                slot = (slot + 1) & mask
            }
            return -1
        }

        /// Twice the slots, every key placed again.
        private mutating func grow() {
            let old = slots
            let current = generation
            slots = [Slot](repeating: Slot(key: 0, head: -1, generation: 0), count: 2 * old.count)
            generation = 1
            let mask = slots.count - 1
            for entry in old where entry.generation == current {
                var slot = Self.hash(entry.key) & mask
                while slots[slot].generation == generation { slot = (slot + 1) & mask }
                slots[slot] = Slot(key: entry.key, head: entry.head, generation: generation)
            }
        }

        /// Fibonacci hashing: the key's bits spread over the high half, taken as the slot.
        private static func hash(_ key: Int64) -> Int {
            Int(truncatingIfNeeded: (UInt64(bitPattern: key) &* 0x9E37_79B9_7F4A_7C15) >> 32)
        }
    }
}
