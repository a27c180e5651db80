import Foundation
import MarkerPins
import MarkerRender
import MarkerPixels
import MarkerPNG
import MarkerSpec
import Testing

/// MARKER.md's pin, point by point, on decoded pixels.
@Suite("Pins look as MARKER.md draws them")
struct PinLookTests {
    static let scales: [MarkerScale] = [1, .oneAndAHalf, 2, 3, 4]

    /// One pin drawn, with where its own pixels (not the shadow's) lie.
    struct Drawn {
        let image: RGBAImage
        let anchor: PixelPoint
        let scale: Double

        init(_ request: PinRequest) throws {
            (image, anchor) = try PinRenderer().draw(request)
            scale = request.scale.factor
        }

        func pixel(_ x: Int, _ y: Int) -> (r: Int, g: Int, b: Int, a: Int) {
            let i = (y * image.width + x) * 4
            return (Int(image.pixels[i]), Int(image.pixels[i + 1]), Int(image.pixels[i + 2]), Int(image.pixels[i + 3]))
        }

        /// The pin's own pixels: more opaque than any shadow (at most 30% black).
        var body: [(x: Int, y: Int)] {
            var points: [(Int, Int)] = []
            for y in 0..<image.height {
                for x in 0..<image.width where pixel(x, y).a > 128 { points.append((x, y)) }
            }
            return points
        }
    }

    @Test("the tip is the anchor; the circle is 24 pt across and the pin 32 pt tall", arguments: PinIcon.allCases, scales)
    func tipAndSize(icon: PinIcon, scale: MarkerScale) throws {
        for theme in Theme.builtIn {
            let drawn = try Drawn(try PinRequest(pin: Pin(icon: icon), theme: theme, scale: scale))
            let body = drawn.body
            let lowest = try #require(body.max { $0.y < $1.y })
            let s = drawn.scale
            // The tip's last row of pixels ends at the anchor, right under it.
            #expect(abs(Double(lowest.y + 1) - drawn.anchor.y) <= 1, "\(icon) @\(scale)x \(theme.name): tip row \(lowest.y), anchor \(drawn.anchor)")
            #expect(abs(Double(lowest.x) + 0.5 - drawn.anchor.x) <= 1.5, "\(icon) @\(scale)x: tip at x \(lowest.x), anchor \(drawn.anchor)")
            let left = try #require(body.map(\.x).min())
            let right = try #require(body.map(\.x).max())
            let top = try #require(body.map(\.y).min())
            #expect(abs(Double(right - left + 1) - 24 * s) <= 1.5, "\(icon) @\(scale)x: \(right - left + 1) px across")
            #expect(abs(drawn.anchor.y - Double(top) - 32 * s) <= 1.5, "\(icon) @\(scale)x: \(drawn.anchor.y - Double(top)) px tall")
            // The canvas holds the shadow: nothing drawn touches its edges.
            #expect(left > 0 && top > 0 && right < drawn.image.width - 1 && lowest.y < drawn.image.height - 1)
        }
    }

    @Test("every pixel of the pin (any alpha above the shadow's) lies inside the footprint placement keeps apart", arguments: scales)
    func insideFootprint(scale: MarkerScale) throws {
        for theme in Theme.builtIn {
            let drawn = try Drawn(try PinRequest(pin: Pin(icon: .water), theme: theme, scale: scale))
            let s = drawn.scale
            let footprint = Pin.footprint
            // Anti-aliasing may reach half a pixel past the outline.
            let slack = 0.5 / s
            for (x, y) in drawn.body {
                let (left, right) = ((Double(x) - drawn.anchor.x) / s, (Double(x + 1) - drawn.anchor.x) / s)
                let (top, bottom) = ((Double(y) - drawn.anchor.y) / s, (Double(y + 1) - drawn.anchor.y) / s)
                let inside = [footprint.pill, footprint.dot].contains { box in
                    left >= box.left - slack && right <= box.right + slack && top >= box.top - slack && bottom <= box.bottom + slack
                }
                #expect(inside, "@\(scale)x \(theme.name): pixel \(x),\(y) is \(left)...\(right), \(top)...\(bottom) pt from the tip")
                if !inside { return }
            }
        }
    }

    @Test("fill in the category's colour, a white icon inside the circle, the border light by day and dark by night", arguments: PinIcon.allCases)
    func colours(icon: PinIcon) throws {
        for theme in Theme.builtIn {
            let drawn = try Drawn(try PinRequest(pin: Pin(icon: icon), theme: theme, scale: 4))
            let s = drawn.scale
            let centre = (x: drawn.anchor.x, y: drawn.anchor.y - 20 * s)
            // Below the icon's 14 pt square and inside the border: the fill.
            let fill = drawn.pixel(Int(centre.x), Int(centre.y + 8.5 * s))
            let wanted = icon.categoryColour
            #expect(abs(Double(fill.r) - wanted.red * 255) <= 2 && abs(Double(fill.g) - wanted.green * 255) <= 2 && abs(Double(fill.b) - wanted.blue * 255) <= 2)
            #expect(fill.a == 255)
            // The border, 0.75 pt inside the circle's edge at its widest.
            let border = drawn.pixel(Int(centre.x - 11.25 * s), Int(centre.y))
            let fillLightness = fill.r + fill.g + fill.b
            let borderLightness = border.r + border.g + border.b
            if theme == .day {
                #expect(borderLightness > 680, "\(icon) day border \(border)")
            } else {
                #expect(borderLightness < fillLightness, "\(icon) night border \(border) against fill \(fill)")
            }
            // The icon: white pixels, all within the icon's square in the circle.
            var white = 0
            for y in 0..<drawn.image.height {
                for x in 0..<drawn.image.width {
                    let p = drawn.pixel(x, y)
                    guard p.r > 245, p.g > 245, p.b > 245, p.a > 250 else { continue }
                    white += 1
                    #expect(abs(Double(x) + 0.5 - centre.x) <= 7.5 * s && abs(Double(y) + 0.5 - centre.y) <= 7.5 * s, "\(icon): white at \(x),\(y)")
                }
            }
            #expect(Double(white) > 12 * s * s, "\(icon): \(white) white pixels")
        }
    }

    @Test("the shadow falls under the tip, soft and black")
    func shadow() throws {
        for theme in Theme.builtIn {
            let drawn = try Drawn(try PinRequest(pin: Pin(icon: .water), theme: theme, scale: 2))
            let below = drawn.pixel(Int(drawn.anchor.x), Int(drawn.anchor.y) + 1)
            #expect(below.a > 0 && below.a < 90 && below.r == 0 && below.g == 0 && below.b == 0, "\(theme.name): \(below)")
        }
    }

    @Test("text sits in the circle, three wide characters set smaller to fit", arguments: ["1", "12", "ABC", "WWW", "水", "ع"])
    func text(_ text: String) throws {
        let drawn = try Drawn(try PinRequest(pin: try Pin(text: text), theme: .day, scale: 4))
        let s = drawn.scale
        let centre = (x: drawn.anchor.x, y: drawn.anchor.y - 20 * s)
        var white = 0
        for y in 0..<drawn.image.height {
            for x in 0..<drawn.image.width {
                let p = drawn.pixel(x, y)
                guard p.r > 240, p.g > 240, p.b > 240, p.a > 250 else { continue }
                let (dx, dy) = (Double(x) + 0.5 - centre.x, Double(y) + 0.5 - centre.y)
                // Inside the border, never on it: the border by day is white too, so only the text counts here.
                guard (dx * dx + dy * dy).squareRoot() < 9.5 * s else { continue }
                white += 1
                #expect(abs(dx) <= 9 * s, "\(text): white at \(x),\(y)")
            }
        }
        #expect(Double(white) > 5 * s * s, "\(text): \(white) white pixels")
    }

    @Test("a renderer that has drawn others (bodies of one colour shared, canvases reused) draws each pin byte for byte as a fresh one does", arguments: scales)
    func sharedBodies(scale: MarkerScale) throws {
        let warm = try PinRenderer()
        var requests: [PinRequest] = []
        for theme in Theme.builtIn {
            for icon in PinIcon.allCases { requests.append(try PinRequest(pin: Pin(icon: icon), theme: theme, scale: scale)) }
            requests.append(try PinRequest(pin: try Pin(text: "12", colour: PinIcon.food.categoryColour), theme: theme, scale: scale))
        }
        // Twice round, so that the second time every body is found kept.
        for request in requests + requests.reversed() {
            let fresh = try PinRenderer().render(request).bytes
            #expect(try warm.render(request).bytes == fresh, "\(request.baseName)")
        }
    }

    @Test("the same pin twice gives the same bytes and name; another colour another name")
    func names() throws {
        let renderer = try PinRenderer()
        let request = try PinRequest(pin: Pin(icon: .water), theme: .night, scale: 2)
        let first = try renderer.render(request)
        let second = try PinRenderer().render(request)
        #expect(first.bytes == second.bytes)
        #expect(first.image.fileName == second.image.fileName)
        #expect(first.image.fileName.wholeMatch(of: /pin-water-night@2x-[0-9a-f]{10}\.png/) != nil)
        let purple = try renderer.render(try PinRequest(pin: Pin(icon: .water, colour: Colour(rgb: 0x8E, 0x24, 0xAA)), theme: .night, scale: 2))
        #expect(purple.image.fileName != first.image.fileName)
        #expect(purple.image.fileName.hasPrefix("pin-water-night@2x-"))
        let text = try renderer.render(try PinRequest(pin: try Pin(text: "A1"), theme: .day, scale: 1))
        #expect(text.image.fileName.hasPrefix("pin-text-A1-day@1x-"))
    }

    @Test("as SVG and PDF: the PNG's size and anchor", arguments: [ImageFormat.svg, .pdf])
    func documents(format: ImageFormat) throws {
        let renderer = try PinRenderer()
        let request = try PinRequest(pin: Pin(icon: .camp), theme: .day, scale: 2)
        let png = try renderer.render(request)
        let document = try renderer.render(request, format: format)
        #expect(document.image.width == png.image.width && document.image.height == png.image.height)
        #expect(document.image.anchor == png.image.anchor)
        #expect(document.image.fileName.hasSuffix(format.fileExtension))
        let head = String(decoding: document.bytes.prefix(5), as: UTF8.self)
        #expect(format == .svg ? document.bytes.count > 200 && String(decoding: document.bytes, as: UTF8.self).contains("<svg") : head == "%PDF-")
    }

    @Test("bad pins are refused with the choices or the limit named")
    func refusals() {
        #expect(throws: SpecError(.icon, "'tree' is not one of \(PinIcon.choices)")) { try PinIcon(named: "tree") }
        #expect(throws: SpecError.self) { try Pin(text: "") }
        #expect(throws: SpecError(.text, "must be 1 to 3 characters (got 4: 'ABCD')")) { try Pin(text: "ABCD") }
        #expect(throws: SpecError.self) { try Pin(text: "A B") }
        #expect(throws: SpecError.self) { try Pin(text: "A\u{7}") }
        // Combining marks belong to the character they mark: this is three characters.
        #expect((try? Pin(text: "e\u{301}ab")) != nil)
    }
}

@Suite("Pins with a user's SVG icon")
struct SVGIconPinTests {
    static let bench = Array(
        #"<svg xmlns="http://www.w3.org/2000/svg" width="15" height="15" viewBox="0 0 15 15"><path d="M2 6h11v2H2zM3 8h1v4H3zm8 0h1v4h-1zM2 4h11v1H2z"/></svg>"#
            .utf8)

    @Test("the icon is drawn in white inside its 14 pt square, whatever colour the file gives it")
    func drawn() throws {
        let coloured = Array(String(decoding: Self.bench, as: UTF8.self).replacingOccurrences(of: "<path", with: "<path fill=\"#ff0000\"").utf8)
        for document in [Self.bench, coloured] {
            let request = try PinRequest(pin: try Pin(svgIcon: document, name: "bench"), theme: .day, scale: 4)
            let (image, anchor) = try PinRenderer().draw(request)
            let centre = (x: anchor.x, y: anchor.y - 20 * 4)
            var white = 0
            for y in 0..<image.height {
                for x in 0..<image.width {
                    let i = (y * image.width + x) * 4
                    guard image.pixels[i] > 245, image.pixels[i + 1] > 245, image.pixels[i + 2] > 245, image.pixels[i + 3] > 250 else { continue }
                    white += 1
                    #expect(abs(Double(x) + 0.5 - centre.x) <= 7.5 * 4 && abs(Double(y) + 0.5 - centre.y) <= 7.5 * 4, "white at \(x),\(y)")
                }
            }
            #expect(white > 400, "\(white) white pixels")
        }
        let name = try PinRenderer().render(try PinRequest(pin: try Pin(svgIcon: Self.bench, name: "park bench"), theme: .night, scale: 2)).image.fileName
        #expect(name.hasPrefix("pin-svg-park_bench-night@2x-"))
    }

    @Test(
        "an SVG that points outside itself, or is not one, is refused before any parser sees it",
        arguments: [
            (#"<svg xmlns:xlink="http://www.w3.org/1999/xlink"><image xlink:href="file:///etc/passwd"/></svg>"#, "refers to 'file:///etc/passwd'"),
            (#"<svg><image href = 'https://example.com/a.png'/></svg>"#, "refers to 'https://example.com/a.png'"),
            (#"<svg><rect style="fill:url( 'http://x/y#z' )"/></svg>"#, "refers to 'http://x/y#z'"),
            (#"<svg><use href="other.svg#icon"/></svg>"#, "refers to 'other.svg#icon'"),
            (#"<svg><image href="data:image/png;base64,iVBORw0KGgo="/></svg>"#, "refers to 'data:image/png;base64,ivborw0kggo='"),
            (#"<?xml version="1.0"?><!DOCTYPE svg [<!ENTITY a "aaaa">]><svg>&a;</svg>"#, "has <!entity"),
            (#"<!DOCTYPE svg SYSTEM "http://example.com/svg.dtd"><svg/>"#, "DOCTYPE names an outside document"),
            (##"<svg><xi:include href="#a"/></svg>"##, "has <xi:include"),
            (#"<svg><style>@import url(#x);</style></svg>"#, "has @import"),
            ("GIF89a", "is not an SVG"),
        ])
    func refusals(document: String, message: String) {
        let refusal = #expect(throws: SpecError.self) { try Pin(svgIcon: Array(document.utf8), name: "x") }
        #expect(refusal?.field == .icon)
        #expect(refusal?.problem.contains(message) == true, "\(String(describing: refusal))")
    }

    @Test("references within the file are fine; a file too large or that does not parse is refused")
    func limits() throws {
        _ = try Pin(svgIcon: Array(##"<svg><defs><path id="p" d="M0 0h1v1z"/></defs><use href="#p"/><rect style="fill:url(#g)"/></svg>"##.utf8), name: "x")
        #expect(throws: SpecError(.icon, "file is \(SVGIcon.maximumBytes + 1) bytes; an SVG icon may be at most \(SVGIcon.maximumBytes)")) {
            try Pin(svgIcon: [UInt8](repeating: 0x20, count: SVGIcon.maximumBytes + 1), name: "x")
        }
        #expect(throws: RenderError.self) { try PinRenderer.check(svgIcon: Array("<svg><path d=\"M0 0".utf8)) }
    }
}

@Suite("A route file's symbols name the built-in icons")
struct PinSymbolTests {
    @Test(
        "Garmin's <sym> and Maki's marker-symbol", arguments: [
            ("Drinking Water", PinIcon.water), ("drinking-water", .water), ("Summit", .summit), ("mountain", .summit),
            ("Scenic Area", .viewpoint), ("Campground", .camp), ("campsite", .camp), ("Lodging", .shelter), ("Danger Area", .danger),
            ("Information", .info), ("Parking Area", .parking), ("Restroom", .toilets), ("toilet", .toilets), ("Bike Shop", .repair),
            ("Restaurant", .food), ("cafe", .cafe), ("PARKING_AREA", .parking),
        ] as [(String, PinIcon)])
    func known(symbol: String, icon: PinIcon) {
        #expect(PinIcon(symbol: symbol) == icon)
    }

    @Test("a symbol with no built-in icon is nil", arguments: ["Flag, Blue", "Waypoint", "", "水"])
    func unknown(symbol: String) {
        #expect(PinIcon(symbol: symbol) == nil)
    }
}
