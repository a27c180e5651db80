import MarkerSpec
import RouteModel

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

        mutating func insert(_ position: Int32, _ item: Item, scale: Double) {
            Self.forEachCell(of: item.area, x: item.x * scale, y: item.y * scale, margin: 0, columns: columns) { key in
                let slot = addingSlot(for: key)
                entries.append(Entry(position: position, next: slots[slot].head))
                slots[slot].head = Int32(entries.count - 1)
            }
        }

        /// Calls `body` with every position in the cells within `margin` of `item`'s area (some more than once).
        func forEachNear(_ item: Item, scale: Double, margin: Double, _ body: (Int32) -> Void) {
            Self.forEachCell(of: item.area, x: item.x * scale, y: item.y * scale, margin: margin, columns: columns) { key in
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
