public import MarkerSpec

/// Where a theme's pictures go on sprite sheets: as many sheets as needed, each within the side
/// GPUs load, every picture on the same sheet at every pixel ratio.
public enum SpritePacker {
    /// A picture to place, at one pixel ratio.
    public struct Item: Sendable, Equatable {
        public let id: SpriteID
        public let width: Int
        public let height: Int

        public init(id: SpriteID, width: Int, height: Int) {
            self.id = id
            self.width = width
            self.height = height
        }
    }

    /// A picture's place on its sheet.
    public struct Slot: Sendable, Equatable {
        public let item: Item
        public let x: Int
        public let y: Int
    }

    /// One sheet: its size and what it holds.
    public struct Sheet: Sendable {
        public let width: Int
        public let height: Int
        public let slots: [Slot]

        /// The share of the sheet's pixels that pictures cover.
        public var fill: Double {
            let used = slots.reduce(0) { $0 + $1.item.width * $1.item.height }
            return width * height == 0 ? 0 : Double(used) / Double(width * height)
        }
    }

    /// Pixels between neighbours, so a map's linear sampling never bleeds one picture into the next.
    static let gap = 1

    /// Divides `items` among sheets of at most `maximumSide` pixels a side and packs each: shelves
    /// of pictures, tallest first, as wide as the sheet allows; the last sheet only as large as it
    /// needs to be.
    /// - Throws: `MapError.Reason.spriteTooLarge` if one picture alone is larger than a sheet.
    public static func pack(_ items: [Item], maximumSide: Int) throws(MapError) -> [Sheet] {
        if let huge = items.first(where: { $0.width > maximumSide || $0.height > maximumSide }) {
            throw MapError(
                .spriteTooLarge, "sprite image \(huge.id) is \(huge.width)×\(huge.height), larger than a \(maximumSide) px sprite sheet")
        }
        let sorted = items.sorted { ($0.height, $1.id) > ($1.height, $0.id) }
        // Fill full-width sheets shelf by shelf (as `shelves` would place them), starting a new
        // sheet where a shelf would pass the bottom; then pack each group as compactly as it allows.
        var groups: [[Item]] = []
        var current: [Item] = []
        var (x, y, shelfHeight) = (0, 0, 0)
        for item in sorted {
            if x > 0 && x + item.width > maximumSide {
                y += shelfHeight + gap
                (x, shelfHeight) = (0, 0)
            }
            if !current.isEmpty && y + max(shelfHeight, item.height) > maximumSide {
                groups.append(current)
                current = []
                (x, y, shelfHeight) = (0, 0, 0)
            }
            current.append(item)
            x += item.width + gap
            shelfHeight = max(shelfHeight, item.height)
        }
        if !current.isEmpty { groups.append(current) }
        return groups.map { group in
            let compact = shelves(group, width: squareWidth(group))
            return compact.width <= maximumSide && compact.height <= maximumSide ? compact : shelves(group, width: maximumSide)
        }
    }

    /// Packs the same pictures at several pixel ratios, grouped at the largest ratio so that each
    /// picture is on the same sheet (same index) at every ratio.
    public static func pack(_ itemsByRatio: [Int: [Item]], maximumSide: Int) throws(MapError) -> [[Int: Sheet]] {
        guard let largest = itemsByRatio.keys.max(), let reference = itemsByRatio[largest] else { return [] }
        let groups = try pack(reference, maximumSide: maximumSide)
        var result: [[Int: Sheet]] = []
        for group in groups {
            let ids = Set(group.slots.map(\.item.id))
            var sheets: [Int: Sheet] = [largest: group]
            for (ratio, items) in itemsByRatio where ratio != largest {
                let members = items.filter { ids.contains($0.id) }.sorted { ($0.height, $1.id) > ($1.height, $0.id) }
                guard members.count == ids.count else {
                    throw MapError(.image, "the \(ratio)x sprite lacks pictures the \(largest)x sprite has")
                }
                var sheet = shelves(members, width: squareWidth(members))
                if sheet.width > maximumSide || sheet.height > maximumSide { sheet = shelves(members, width: maximumSide) }
                guard sheet.width <= maximumSide && sheet.height <= maximumSide else {
                    throw MapError(.spriteTooLarge, "the \(ratio)x pictures of one sprite sheet do not fit \(maximumSide) px")
                }
                sheets[ratio] = sheet
            }
            result.append(sheets)
        }
        return result
    }

    /// Packs pictures (tallest first) in shelves no wider than `width`.
    static func shelves(_ items: [Item], width: Int) -> Sheet {
        var slots: [Slot] = []
        slots.reserveCapacity(items.count)
        var (x, y, shelfHeight, usedWidth) = (0, 0, 0, 0)
        for item in items {
            if x > 0 && x + item.width > width {
                y += shelfHeight + gap
                (x, shelfHeight) = (0, 0)
            }
            slots.append(Slot(item: item, x: x, y: y))
            usedWidth = max(usedWidth, x + item.width)
            x += item.width + gap
            shelfHeight = max(shelfHeight, item.height)
        }
        return Sheet(width: usedWidth, height: y + shelfHeight, slots: slots)
    }

    /// A width that makes a roughly square sheet of `items`, and never narrower than the widest.
    static func squareWidth(_ items: [Item]) -> Int {
        let area = items.reduce(0) { $0 + ($1.width + gap) * ($1.height + gap) }
        let widest = items.map(\.width).max() ?? 1
        return max(widest, Int((Double(area).squareRoot() * 1.1).rounded(.up)))
    }
}
