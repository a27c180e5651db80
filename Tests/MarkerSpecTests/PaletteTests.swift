import Testing

@testable import MarkerSpec

@Suite("Colours and palettes")
struct PaletteTests {
    @Test(
        "CSS colours parse",
        arguments: [
            ("#FFFFFF", Colour(rgb: 255, 255, 255)),
            ("#232323", Colour(rgb: 35, 35, 35)),
            ("#fff", Colour(rgb: 255, 255, 255)),
            ("#00000080", Colour(rgb: 0, 0, 0, alpha: 128.0 / 255)),
            ("rgb(35, 35, 35)", Colour(rgb: 35, 35, 35)),
            ("rgba(255,255,255,0.30)", Colour(rgb: 255, 255, 255, alpha: 0.3)),
        ])
    func css(text: String, expected: Colour) throws {
        #expect(try Colour(css: text) == expected)
    }

    @Test("bad colours are refused", arguments: ["", "red", "#12", "#GGGGGG", "rgba(1,2,3)", "rgb(256,0,0)", "rgba(0,0,0,1.5)", "rgba(0,0,0,nan)"])
    func badCSS(text: String) {
        #expect(throws: SpecError.self) { try Colour(css: text) }
    }

    @Test("a full palette file gives a named theme")
    func fullPalette() throws {
        let json = """
            {"name": "brand", "pillFill": "rgba(0,90,200,0.9)", "pillBorder": "rgba(255,255,255,0.4)",
             "label": "#FFFFFF", "dotFill": "rgba(0,90,200,0.95)", "dotBorder": "rgba(255,255,255,0.4)",
             "shadow": "rgba(0,0,0,0.3)"}
            """
        let theme = try Theme.parse(paletteJSON: Array(json.utf8), source: "brand.json")
        #expect(theme.name == "brand")
        #expect(theme.palette.pillFill == Colour(rgb: 0, 90, 200, alpha: 0.9))
    }

    @Test("a base fills the colours left out")
    func basePalette() throws {
        let theme = try Theme.parse(paletteJSON: Array(##"{"base": "night", "label": "#FFD700"}"##.utf8), source: "p.json")
        #expect(theme.name == "custom")
        #expect(theme.palette.pillFill == Palette.night.pillFill)
        #expect(theme.palette.label == Colour(rgb: 255, 215, 0))
    }

    @Test(
        "malformed palettes name the problem",
        arguments: [
            ("not json", "not valid JSON"),
            ("[1, 2]", "one JSON object"),
            (##"{"label": "#FFF"}"##, "missing \"pillFill\""),
            (##"{"base": "night", "labl": "#FFF"}"##, "unknown field \"labl\""),
            (##"{"base": "night", "label": 5}"##, "\"label\" must be a CSS colour"),
            (##"{"base": "night", "label": "#XYZ"}"##, "not a hex digit"),
            (##"{"base": "dusk"}"##, "\"base\""),
            (##"{"base": "night", "name": "Night Mode!"}"##, "lowercase"),
            (##"{"base": "night", "name": "night"}"##, "built-in"),
        ])
    func malformed(json: String, reason: String) {
        #expect {
            try Theme.parse(paletteJSON: Array(json.utf8), source: "p.json")
        } throws: { error in
            "\(error)".contains(reason) && "\(error)".contains("p.json")
        }
    }
}
