import MarkerPins
import MarkerPixels
import MarkerSpec
import Testing

/// MARKER.md's callout, point by point, on decoded pixels.
@Suite("Callouts look as MARKER.md draws them")
struct CalloutLookTests {
    struct Case: Sendable, CustomTestStringConvertible {
        let testDescription: String
        let title: String
        var lines: [String] = []
        var badge: String? = nil
    }

    static let long = String(repeating: "word ", count: 60)
    static let cases: [Case] = [
        Case(testDescription: "one short word", title: "Hi"),
        Case(testDescription: "a title and a badge", title: "Water at Koča na Gozdu", lines: ["Tap by the door"], badge: "open"),
        Case(testDescription: "everything at its longest", title: String(long.prefix(200)), lines: Array(repeating: long, count: 6), badge: String(repeating: "W", count: 24)),
        Case(testDescription: "one unbroken word", title: String(repeating: "W", count: 200), lines: [String(repeating: "水", count: 300)]),
        Case(testDescription: "Arabic and Hebrew", title: "مرحبا بكم في المحطة الجبلية العالية", lines: ["שלום עולם, זו שורה ארוכה למדי כדי לבדוק גלישה"]),
        Case(testDescription: "CJK", title: "山小屋の水場と休憩所", lines: ["水は飲めます。冬季は閉鎖されています。"], badge: "営業中"),
        Case(testDescription: "combining marks", title: "Zalog\u{301} pri Cerkljah", lines: ["e\u{301}e\u{301}e\u{301} ñ"]),
    ]

    /// The bubble's own pixels, more opaque than its shadow (at most 25% black).
    static func body(_ image: RGBAImage) -> (left: Int, right: Int, top: Int, bottom: Int, bottomX: Int) {
        var (left, right, top, bottom, bottomX) = (Int.max, -1, Int.max, -1, 0)
        for y in 0..<image.height {
            for x in 0..<image.width where image.pixels[(y * image.width + x) * 4 + 3] > 128 {
                left = min(left, x)
                right = max(right, x)
                top = min(top, y)
                if y > bottom { (bottom, bottomX) = (y, x) }
            }
        }
        return (left, right, top, bottom, bottomX)
    }

    @Test("120-240 pt wide, a bounded height, the tail's tip at the anchor", arguments: cases, [MarkerScale(1), .oneAndAHalf, 2, 3, 4])
    func bounds(_ given: Case, scale: MarkerScale) throws {
        let callout = try Callout(title: given.title, lines: given.lines, badge: try given.badge.map { try Callout.Badge(text: $0) })
        for theme in Theme.builtIn {
            let (image, anchor) = try CalloutRenderer().draw(try CalloutRequest(callout: callout, theme: theme, scale: scale))
            let s = scale.factor
            let body = Self.body(image)
            let width = Double(body.right - body.left + 1) / s
            #expect(width >= 119.5 && width <= 240.5, "\(given) @\(scale)x: \(width) pt wide")
            // Two lines of title, six detail lines of three lines each, the gaps and the padding.
            let height = (anchor.y - Double(body.top)) / s
            #expect(height <= 360, "\(given) @\(scale)x: \(height) pt tall")
            #expect(abs(Double(body.bottom + 1) - anchor.y) <= 1, "\(given) @\(scale)x: tip row \(body.bottom), anchor \(anchor)")
            #expect(abs(Double(body.bottomX) + 0.5 - anchor.x) <= 1.5, "\(given) @\(scale)x: tip at \(body.bottomX), anchor \(anchor)")
            #expect(body.left > 0 && body.top > 0 && body.right < image.width - 1 && body.bottom < image.height - 1, "the shadow is not clipped")
        }
    }

    @Test("the border runs unbroken round the box and the tail, with no line across the tail's base")
    func outline() throws {
        let (image, anchor) = try CalloutRenderer().draw(try CalloutRequest(callout: try Callout(title: "Hi"), theme: .day, scale: 4))
        func lightness(_ x: Double, _ y: Double) -> Int {
            let i = (Int(y) * image.width + Int(x)) * 4
            return Int(image.pixels[i]) + Int(image.pixels[i + 1]) + Int(image.pixels[i + 2])
        }
        let s = 4.0
        let base = anchor.y - 8 * s
        // Inside the tail, just below where the box's bottom edge would run: fill, not border.
        #expect(lightness(anchor.x, base + 0.5) > 740 && lightness(anchor.x, base - 1.5) > 740)
        // The box's bottom edge, beside the tail: border (darker than the fill).
        #expect(lightness(anchor.x - 20 * s, base - 0.5) < 730)
        // Both sides of the tail, half way down: border.
        for side in [-1.0, 1] {
            let (x, y) = (anchor.x + side * 4 * s - side * 0.7, anchor.y - 4 * s)
            #expect(lightness(x, y) < 730, "tail side \(side): \(lightness(x, y))")
        }
    }

    @Test("text is text: markup is drawn as its characters")
    func markupIsText() throws {
        let renderer = try CalloutRenderer()
        let plain = try renderer.draw(try CalloutRequest(callout: try Callout(title: "x"), theme: .day, scale: 2)).image
        let marked = try renderer.draw(try CalloutRequest(callout: try Callout(title: "<b>x</b> &amp;"), theme: .day, scale: 2)).image
        #expect(Self.body(marked).right - Self.body(marked).left >= Self.body(plain).right - Self.body(plain).left)
        #expect(marked.pixels != plain.pixels)
    }

    @Test("names: the title's ASCII words; the same input the same bytes")
    func names() throws {
        let request = try CalloutRequest(callout: try Callout(title: "Water at Koča na Gozdu!", badge: try Callout.Badge(text: "open")), theme: .night, scale: 2)
        let first = try CalloutRenderer().render(request)
        let second = try CalloutRenderer().render(request)
        #expect(first.bytes == second.bytes && first.image.fileName == second.image.fileName)
        #expect(first.image.fileName.wholeMatch(of: /callout-water-at-ko-a-na-gozdu-night@2x-[0-9a-f]{10}\.png/) != nil)
        #expect(try Callout(title: "水場").nameLabel == "untitled")
        let svg = try CalloutRenderer().render(request, format: .svg)
        #expect(svg.image.width == first.image.width && svg.image.anchor == first.image.anchor)
    }

    @Test("refusals name the part and the limit")
    func refusals() throws {
        #expect(throws: SpecError(.title, "is empty")) { try Callout(title: " \n ") }
        #expect(throws: SpecError(.title, "is 201 characters; a callout takes at most 200")) { try Callout(title: String(repeating: "a", count: 201)) }
        #expect(throws: SpecError(.line, "is given 7 times; a callout has at most 6 detail lines")) { try Callout(title: "a", lines: Array(repeating: "b", count: 7)) }
        #expect(throws: SpecError(.line, "is 301 characters; a callout takes at most 300")) { try Callout(title: "a", lines: [String(repeating: "b", count: 301)]) }
        #expect(throws: SpecError(.badge, "is 25 characters; a callout takes at most 24")) { try Callout.Badge(text: String(repeating: "c", count: 25)) }
        // Line breaks and tabs become spaces: a title is one paragraph.
        #expect(try Callout(title: "a\nb\tc").title == "a b c")
    }
}

@Suite("Detail lines with an icon")
struct CalloutLineIconTests {
    @Test("`[name] text` at a line's start names an icon; anything else is text", arguments: [
        ("[phone] +386 1 234 567", CalloutLineIcon.phone, "+386 1 234 567"),
        ("[time]   8:00-20:00", .time, "8:00-20:00"),
        ("[note] stays text", nil, "[note] stays text"),
        ("[phone]+386", nil, "[phone]+386"),
        ("phone: +386", nil, "phone: +386"),
        (" [date] later", nil, " [date] later"),
    ] as [(String, CalloutLineIcon?, String)])
    func split(line: String, icon: CalloutLineIcon?, text: String) {
        let parts = CalloutLineIcon.split(line)
        #expect(parts.icon == icon && parts.text == text)
    }

    @Test("the icon is drawn 10 pt across in the lines' colour, the text 14 pt further in", arguments: CalloutLineIcon.allCases)
    func drawn(icon: CalloutLineIcon) throws {
        let renderer = try CalloutRenderer()
        let with = try renderer.draw(try CalloutRequest(callout: try Callout(title: "Hut", lines: ["[\(icon.rawValue)] 12:00"]), theme: .day, scale: 4))
        let without = try renderer.draw(try CalloutRequest(callout: try Callout(title: "Hut", lines: ["12:00"]), theme: .day, scale: 4))
        #expect(with.image.width == without.image.width && with.image.height == without.image.height)
        let s = 4.0
        let left = with.anchor.x - 60 * s + 12 * s
        // Dark pixels in the icon's 10 pt column, none there without it.
        func dark(_ image: (image: MarkerPixels.RGBAImage, anchor: PixelPoint), in columns: ClosedRange<Double>) -> Int {
            var count = 0
            let rows = Int(image.anchor.y - 40 * s)..<Int(image.anchor.y - 20 * s)
            for y in rows {
                for x in Int(columns.lowerBound)..<Int(columns.upperBound) {
                    let i = (y * image.image.width + x) * 4
                    if image.image.pixels[i] < 160 && image.image.pixels[i + 3] > 200 { count += 1 }
                }
            }
            return count
        }
        #expect(dark(with, in: left...(left + 10 * s)) > 40, "\(icon): no icon drawn")
        // The 4 pt gap between the icon and its text is clear; the text begins after it.
        #expect(dark(with, in: (left + 10.5 * s)...(left + 13.5 * s)) == 0, "\(icon): something in the gap")
        #expect(dark(with, in: (left + 14 * s)...(left + 24 * s)) > 0, "\(icon): no text after the icon")
        #expect(dark(without, in: (left + 10.5 * s)...(left + 13.5 * s)) > 0, "without an icon the text starts at the edge")
    }
}
