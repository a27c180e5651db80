import MarkerPNG
import CPangoCairo
public import MarkerPixels
import MarkerSpec

/// One labelled picture of many markers, so a person can review the whole look at a glance.
public enum ContactSheet {
    /// One marker on the sheet: its row and column headings and the map colour it sits on.
    public struct Entry: Sendable {
        public enum Backdrop: Sendable { case light, dark }

        public var row: String
        public var column: String
        public var image: RGBAImage
        public var backdrop: Backdrop

        public init(row: String, column: String, image: RGBAImage, backdrop: Backdrop) {
            self.row = row
            self.column = column
            self.image = image
            self.backdrop = backdrop
        }
    }

    /// Colours of a light and a dark base map, so translucency and shadow read as they will.
    static let lightMap = Colour(rgb: 236, 232, 222)
    static let darkMap = Colour(rgb: 40, 44, 52)

    /// Draws `entries` in a grid under `title`: rows in order of first appearance, columns by
    /// `columnOrder` (by a key of their entries' choosing: a theme's scales side by side), ties in order of first appearance.
    public static func render(
        _ entries: [Entry], title: String, columnOrder: (Entry) -> [Int] = { _ in [] }
    ) throws(RenderError) -> [UInt8] {
        let rows = entries.map(\.row).uniqued()
        var columnKeys: [String: [Int]] = [:]
        for entry in entries where columnKeys[entry.column] == nil { columnKeys[entry.column] = columnOrder(entry) }
        let firstSeen = entries.map(\.column).uniqued()
        let columns = firstSeen.enumerated().sorted {
            let (left, right) = (columnKeys[$0.element] ?? [], columnKeys[$1.element] ?? [])
            return left != right ? left.lexicographicallyPrecedes(right) : $0.offset < $1.offset
        }.map(\.element)
        let gap = 8
        let headerWidth = 150
        let headerHeight = 24
        let titleHeight = 36
        let cellWidth = (entries.map(\.image.width).max() ?? 1) + 2 * gap
        let cellHeight = (entries.map(\.image.height).max() ?? 1) + 2 * gap
        let width = headerWidth + columns.count * cellWidth + gap
        let height = titleHeight + headerHeight + rows.count * cellHeight + gap

        let surface = try CairoSurface(format: CAIRO_FORMAT_ARGB32, width: width, height: height)
        let context = try CairoContext(surface)
        context.setSource(Colour(rgb: 255, 255, 255))
        cairo_paint(context.pointer)

        let fontMap = try FontMap()
        let text = try TextLayout(context: try TextContext(fontMap: fontMap))
        let captionFont = FontDescription(family: MarkerRenderer.fontFamily, weight: PANGO_WEIGHT_MEDIUM, absoluteSize: 12)
        let titleFont = FontDescription(family: MarkerRenderer.fontFamily, weight: PANGO_WEIGHT_BOLD, absoluteSize: 16)
        let ink = Colour(rgb: 35, 35, 35)
        func write(_ string: String, font: FontDescription, x: Double, y: Double) {
            text.setRuns([.init(text: string, font: font, rise: 0)])
            context.setSource(ink)
            text.show(in: context, atX: x, y: y)
        }

        write(title, font: titleFont, x: Double(gap), y: 8)
        for (index, column) in columns.enumerated() {
            write(column, font: captionFont, x: Double(headerWidth + index * cellWidth + gap), y: Double(titleHeight))
        }
        for (rowIndex, row) in rows.enumerated() {
            let top = titleHeight + headerHeight + rowIndex * cellHeight
            write(row, font: captionFont, x: Double(gap), y: Double(top + cellHeight / 2 - 8))
            for entry in entries where entry.row == row {
                let columnIndex = columns.firstIndex(of: entry.column)!
                let left = headerWidth + columnIndex * cellWidth
                context.addRectangle(Rect(x: Double(left), y: Double(top), width: Double(cellWidth - 2), height: Double(cellHeight - 2)))
                context.setSource(entry.backdrop == .light ? lightMap : darkMap)
                context.fill()
                let marker = try CairoSurface(image: entry.image)
                cairo_set_source_surface(
                    context.pointer, marker.pointer,
                    Double(left + (cellWidth - entry.image.width) / 2),
                    Double(top + (cellHeight - entry.image.height) / 2))
                cairo_paint(context.pointer)
            }
        }
        try context.checkStatus("drawing the contact sheet")
        do { return try PNGEncoder().encode(surface.straightRGBA()) } catch { throw RenderError(error) }
    }
}

extension Array where Element: Hashable {
    /// The elements in order of first appearance, each once.
    func uniqued() -> [Element] {
        var seen = Set<Element>()
        return filter { seen.insert($0).inserted }
    }
}
