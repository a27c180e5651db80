import MarkerPixels
import MarkerSpec
import Testing

@testable import MarkerRender

/// Combined markers on real Cairo/Pango pixels: one pill, its parts in order, parted by crisp lines.
@Suite("Combined markers")
struct CombinedMarkerTests {
    static let combined: [[(Marker.Kind, Double)]] = [
        [(.start, 0), (.end, 8.6)], [(.end, 24), (.start, 0)], [(.end, 75), (.start, 75)],
        [(.start, 0), (.end, 1.9), (.start, 0)], [(.start, 0), (.end, 12345), (.start, 0), (.end, 99999), (.start, 0), (.end, 12345)],
    ]

    static func marker(_ parts: [(Marker.Kind, Double)], unit: Marker.Unit = .km) throws -> Marker {
        try Marker(combining: try parts.map { kind, distance throws(SpecError) in try Marker.Part(kind: kind, distance: distance) }, unit: unit)
    }

    @Test(
        "readings in a row that are equal share one label and show each icon once",
        arguments: [
            ([(Marker.Kind.start, 0.0), (.end, 8.6)], [LabelSegment(number: "0", icons: [.play]), LabelSegment(number: "8.6", icons: [.flag])]),
            ([(.end, 75), (.start, 75.2)], [LabelSegment(number: "75", icons: [.flag, .play])]),
            (
                [(.start, 0), (.end, 0.03), (.start, 0), (.end, 0.01), (.start, 0), (.end, 0.3)],
                [LabelSegment(number: "0", icons: [.play, .flag]), LabelSegment(number: "0.3", icons: [.flag])]
            ),
            (
                [(.start, 0), (.end, 1.9), (.start, 0)],
                [.init(number: "0", icons: [.play]), .init(number: "1.9", icons: [.flag]), .init(number: "0", icons: [.play])]
            ),
        ])
    func segments(parts: [(Marker.Kind, Double)], expected: [LabelSegment]) throws {
        #expect(LabelSegment.segments(of: try Self.marker(parts)) == expected)
    }

    @Test("single markers are one segment, as they always were")
    func singleSegments() throws {
        #expect(LabelSegment.segments(of: try Marker(kind: .start, distance: 75)) == [LabelSegment(number: "75", icons: [.play])])
        #expect(LabelSegment.segments(of: try Marker(kind: .distance, distance: 7.5)) == [LabelSegment(number: "7.5", icons: [])])
        #expect(LabelSegment.segments(of: try Marker(kind: .end, distance: 123)) == [LabelSegment(number: "123", icons: [.flag])])
    }

    @Test("parts sit in order, each 4pt from a 1pt divider on whole pixels, all inside the padding", arguments: combined, [1, 2, 3])
    func layout(parts: [(Marker.Kind, Double)], scale: MarkerScale) throws {
        let marker = try Self.marker(parts)
        let request = try MarkerRequest(marker: marker, theme: .night, scale: scale)
        let renderer = try MarkerRenderer()
        let layout = try renderer.layout(for: request)
        let segments = LabelSegment.segments(of: marker)
        let s = scale.factor
        try #require(layout.labelOrigins.count == segments.count)
        try #require(layout.dividers.count == segments.count - 1)
        #expect(layout.icons.map(\.icon) == segments.flatMap(\.icons))
        #expect(try #require(layout.labelOrigins.first).x >= layout.pill.x + 4 * s - 1)
        #expect(layout.content.upperBound <= layout.pill.maxX - 4 * s + 1)
        // Every segment here ends in an icon: the segment's last icon, the divider, the next label.
        var lastIcon = -1
        for (index, divider) in layout.dividers.enumerated() {
            lastIcon += segments[index].icons.count
            #expect(divider.x == divider.x.rounded() && divider.y == divider.y.rounded())
            #expect(divider.width == s && divider.height == 12 * s)
            #expect(divider.y == layout.pill.y + 4 * s)
            #expect(layout.icons[lastIcon].rect.maxX + 4 * s - 1 <= divider.x)
            #expect(layout.labelOrigins[index + 1].x >= divider.maxX + 4 * s - 1)
        }

        // On the pixels: the divider's columns are the border over the fill, and beside them the fill alone.
        let (image, _) = try renderer.draw(request)
        let palette = Theme.night.palette
        let row = Int(layout.pill.y + layout.pill.height / 2)
        let onFill = Self.over(palette.pillBorder, palette.pillFill)
        for divider in layout.dividers {
            for x in Int(divider.x)..<Int(divider.maxX) { #expect(Self.close(image[x, row], onFill), "x \(x)") }
            #expect(Self.close(image[Int(divider.x) - 1, row], Self.over(nil, palette.pillFill)))
            #expect(Self.close(image[Int(divider.maxX), row], Self.over(nil, palette.pillFill)))
        }
    }

    @Test("a combined marker's image is centred on its anchor like every other", arguments: combined)
    func anchor(parts: [(Marker.Kind, Double)]) throws {
        for scale in MarkerScale.all {
            let request = try MarkerRequest(marker: try Self.marker(parts), theme: .day, scale: scale)
            let rendered = try MarkerRenderer().render(request)
            #expect(rendered.image.anchor.x == Double(rendered.image.width) / 2)
            #expect(rendered.image.anchor.y == Double(rendered.image.height) - 9 * scale.factor)
        }
    }

    /// `top` painted over `bottom` (source-over), as straight-alpha 8-bit.
    static func over(_ top: Colour?, _ bottom: Colour) -> RGBA {
        let top = top ?? Colour(red: 0, green: 0, blue: 0, alpha: 0)
        let alpha = top.alpha + bottom.alpha * (1 - top.alpha)
        func channel(_ t: Double, _ b: Double) -> UInt8 {
            UInt8(((t * top.alpha + b * bottom.alpha * (1 - top.alpha)) / alpha * 255).rounded())
        }
        return RGBA(
            r: channel(top.red, bottom.red), g: channel(top.green, bottom.green), b: channel(top.blue, bottom.blue),
            a: UInt8((alpha * 255).rounded()))
    }

    /// Equal within two 8-bit steps per channel: premultiplied arithmetic rounds twice.
    static func close(_ a: RGBA, _ b: RGBA) -> Bool {
        abs(Int(a.r) - Int(b.r)) <= 2 && abs(Int(a.g) - Int(b.g)) <= 2 && abs(Int(a.b) - Int(b.b)) <= 2 && abs(Int(a.a) - Int(b.a)) <= 2
    }
}
