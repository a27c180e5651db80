public import MarkerSpec

/// A spelled sheet drawn at each ratio map SDKs request, under the name its URL carries,
/// `<spelling>-<hash>`: the hash of its PNGs and JSONs, so a changed look is a new URL.
public struct SpelledSprite: Sendable {
    /// One picture of the sheet: its id and its PNG at each ratio.
    public struct Picture: Sendable {
        public struct Image: Sendable {
            /// Read only when the sheet is drawn, so packing trials (`fits`) copy no picture.
            public let png: @Sendable () -> [UInt8]
            public let width: Int
            public let height: Int

            public init(width: Int, height: Int, png: @escaping @Sendable () -> [UInt8]) {
                self.png = png
                self.width = width
                self.height = height
            }
        }

        public let id: SpriteID
        public let imageByRatio: [Int: Image]

        public init(id: SpriteID, imageByRatio: [Int: Image]) {
            self.id = id
            self.imageByRatio = imageByRatio
        }
    }

    public let spelling: SheetSpelling
    /// `<spelling>-<10 hex>`; the files are this with `@2x` and `.png` or `.json` added.
    public let name: String
    /// The sheet at each of `SpriteSheet.pixelRatios`.
    public let sheets: [Int: SpriteSheet]

    /// Packs and draws the sheet from its `pictures`, given in the spelling's order.
    /// - Throws: `MapError` if a picture lacks a ratio or they do not fit on one sheet of `maximumSide`.
    public init(spelling: SheetSpelling, pictures: [Picture], maximumSide: Int = SpriteSheet.maximumSide) throws(MapError) {
        let packed = try Self.pack(pictures, maximumSide: maximumSide)
        guard packed.count == 1, let sheetByRatio = packed.first else {
            throw MapError(.spriteTooLarge, "the pictures of \(spelling) do not fit on one \(maximumSide) px sprite sheet")
        }
        var byID: [SpriteID: Picture] = [:]
        for picture in pictures { byID[picture.id] = picture }
        var sheets: [Int: SpriteSheet] = [:]
        for ratio in SpriteSheet.pixelRatios {
            guard let sheet = sheetByRatio[ratio] else { throw MapError(.image, "no \(ratio)x pictures for \(spelling)") }
            sheets[ratio] = try SpriteSheet(sheet: sheet, pixelRatio: ratio) { (id) throws(MapError) in
                guard let image = byID[id]?.imageByRatio[ratio] else { throw MapError(.image, "no \(ratio)x picture of \(id)") }
                return image.png()
            }
        }
        self.spelling = spelling
        self.sheets = sheets
        let files = SpriteSheet.pixelRatios.compactMap { sheets[$0] }.map { (png: $0.png, json: $0.json) }
        name = "\(spelling)-\(SpriteSheet.hashPrefix(files: files))"
    }

    /// Whether `pictures` pack on one sheet of `maximumSide` at every ratio.
    public static func fits(_ pictures: [Picture], maximumSide: Int = SpriteSheet.maximumSide) -> Bool {
        (try? pack(pictures, maximumSide: maximumSide).count) == 1
    }

    private static func pack(_ pictures: [Picture], maximumSide: Int) throws(MapError) -> [[Int: SpritePacker.Sheet]] {
        var items: [Int: [SpritePacker.Item]] = [:]
        for picture in pictures {
            for ratio in SpriteSheet.pixelRatios {
                guard let image = picture.imageByRatio[ratio] else { throw MapError(.image, "no \(ratio)x picture of \(picture.id)") }
                items[ratio, default: []].append(SpritePacker.Item(id: picture.id, width: image.width, height: image.height))
            }
        }
        return try SpritePacker.pack(items, maximumSide: maximumSide)
    }
}
