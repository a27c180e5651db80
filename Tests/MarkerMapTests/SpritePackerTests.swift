import MarkerMap
import MarkerSpec
import Testing

@Suite("Sprite packing")
struct SpritePackerTests {
    /// `count` pictures of marker-like sizes (one height per ratio, widths varying with the label).
    static func items(count: Int, ratio: Int) throws -> [SpritePacker.Item] {
        try (0..<count).map { index in
            let marker = try Marker(kind: .distance, distance: Double(index + 1))
            let id = SpriteID(marker: marker, theme: .night, sha256ByScale: [1: "\(index)"])
            return SpritePacker.Item(id: id, width: (40 + 7 * String(index + 1).count) * ratio, height: 30 * ratio)
        }
    }

    @Test(
        "pictures spread over sheets within the side, each placed once, none overlapping",
        arguments: [(1, 4096), (500, 4096), (3_000, 2048), (300, 256)])
    func packsWithinTheSide(count: Int, side: Int) throws {
        let items = try Self.items(count: count, ratio: 2)
        let sheets = try SpritePacker.pack(items, maximumSide: side)
        #expect(sheets.flatMap(\.slots).map(\.item.id).sorted() == items.map(\.id).sorted())
        for sheet in sheets {
            #expect(sheet.width <= side && sheet.height <= side)
            let slots = sheet.slots
            #expect(slots.allSatisfy { $0.x >= 0 && $0.y >= 0 && $0.x + $0.item.width <= sheet.width && $0.y + $0.item.height <= sheet.height })
            // Pairwise, counted rather than expected one by one (millions of pairs on a full sheet).
            var overlaps = 0
            for (i, a) in slots.enumerated() {
                for b in slots[(i + 1)...]
                where !(a.x + a.item.width <= b.x || b.x + b.item.width <= a.x || a.y + a.item.height <= b.y || b.y + b.item.height <= a.y) {
                    overlaps += 1
                }
            }
            #expect(overlaps == 0)
        }
        // Every sheet but the last is well filled, so the count is close to what the area needs.
        for sheet in sheets.dropLast() { #expect(sheet.fill > 0.75, "fill \(sheet.fill)") }
        let area = Double(items.reduce(0) { $0 + $1.width * $1.height })
        #expect(Double(sheets.count) <= (area / (0.75 * Double(side * side))).rounded(.up) + 1)
    }

    @Test("the same pictures at 1x and 2x land on the same sheets")
    func ratiosShareSheets() throws {
        let sheets = try SpritePacker.pack([1: Self.items(count: 3_000, ratio: 1), 2: Self.items(count: 3_000, ratio: 2)], maximumSide: 1024)
        #expect(sheets.count > 1)
        for pair in sheets {
            let one = try #require(pair[1])
            let two = try #require(pair[2])
            #expect(Set(one.slots.map(\.item.id)) == Set(two.slots.map(\.item.id)))
            #expect(one.width <= 1024 && one.height <= 1024 && two.width <= 1024 && two.height <= 1024)
        }
    }

    @Test("a picture larger than a sheet is refused, naming it")
    func hugePictureIsRefused() throws {
        let item = try Self.items(count: 1, ratio: 2)[0]
        let error = #expect(throws: MapError.self) { try SpritePacker.pack([item], maximumSide: 16) }
        #expect(error?.reason == .spriteTooLarge && error?.message.contains(item.id.value) == true)
    }
}
