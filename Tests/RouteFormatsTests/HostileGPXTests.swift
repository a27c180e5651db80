import TestSupport
import RouteModel
import RouteFormats
import MarkerSpec
import Testing

/// GPX bytes that crashed or stalled the FoundationXML reader, and the encodings GPX files come in.
@Suite("Reading hostile and unusual GPX")
struct HostileGPXTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var testDescription: String
        var bytes: [UInt8]
        /// Parts of the error message.
        var says: [String]
    }

    static func declared(_ encoding: String, then tail: [UInt8]) -> [UInt8] {
        Array("<?xml version=\"1.0\" encoding=\"\(encoding)\"?>".utf8) + tail
    }

    static let twoPoints = Array(#"<trkseg><trkpt lat="46" lon="14"/><trkpt lat="46.1" lon="14"/></trkseg>"#.utf8)

    /// A track named by `name`'s bytes, under an XML declaration of `encoding`.
    static func namedTrack(_ encoding: String, name: [UInt8]) -> [UInt8] {
        declared(encoding, then: Array("<gpx><trk><name>".utf8) + name + Array("</name>".utf8) + twoPoints + Array("</trk></gpx>".utf8))
    }

    /// An entity of 40 KB referenced 20,000 times: 800 KB that would expand to 800 MB.
    static let quadraticBlowup: [UInt8] = {
        let entity = String(repeating: "A", count: 40_000)
        let references = String(repeating: "&a;", count: 20_000)
        return Array(#"<?xml version="1.0"?><!DOCTYPE gpx [<!ENTITY a "\#(entity)">]><gpx><trk><name>\#(references)</name></trk></gpx>"#.utf8)
    }()

    static let billionLaughs: [UInt8] = {
        var declarations = #"<!ENTITY l0 "lol">"#
        for level in 1...9 {
            declarations += "<!ENTITY l\(level) \"" + String(repeating: "&l\(level - 1);", count: 10) + "\">"
        }
        return Array("<?xml version=\"1.0\"?><!DOCTYPE gpx [\(declarations)]><gpx><trk><name>&l9;</name></trk></gpx>".utf8)
    }()

    static let refused: [Case] = [
        Case(testDescription: "UTF-7 and one byte", bytes: declared("UTF-7", then: [0xD0]), says: ["\"UTF-7\"", "does not read", "UTF-8"]),
        Case(testDescription: "Shift_JIS and one byte", bytes: declared("SHIFT_JIS", then: [0xD0]), says: ["\"SHIFT_JIS\"", "does not read"]),
        Case(testDescription: "Big5 and one byte", bytes: declared("BIG5", then: [0xD0]), says: ["\"BIG5\"", "does not read"]),
        Case(testDescription: "ISO-2022-JP and one byte", bytes: declared("ISO-2022-JP", then: [0xD0]), says: ["\"ISO-2022-JP\"", "does not read"]),
        Case(testDescription: "CP1252 and one byte", bytes: declared("CP1252", then: [0xD0]), says: ["not valid XML: line 1"]),
        Case(
            testDescription: "a Shift_JIS track", bytes: namedTrack("Shift_JIS", name: [0x93, 0x8C, 0x8B, 0x9E]),
            says: ["\"Shift_JIS\"", "does not read"]),
        Case(testDescription: "00 00 00 3C 2B 0D 0D 0A", bytes: [0x00, 0x00, 0x00, 0x3C, 0x2B, 0x0D, 0x0D, 0x0A], says: ["not valid XML: line 1"]),
        Case(testDescription: "a processing instruction without data", bytes: Array("<gpx><?pi?></gpx>".utf8), says: ["no track or route points"]),
        Case(
            testDescription: "a duplicate attribute", bytes: Array(#"<gpx><trk><trkseg><trkpt lat="1" lat="2" lon="2"/></trkseg></trk></gpx>"#.utf8),
            says: ["not valid XML: line 1, column 34", "same attribute twice"]),
        Case(
            testDescription: "invalid UTF-8 in a name", bytes: namedTrack("UTF-8", name: [0x43, 0x61, 0x66, 0xE9, 0x20]),
            says: ["not valid XML: line 1", "not valid in the document's encoding"]),
        Case(testDescription: "a quadratic entity expansion", bytes: quadraticBlowup, says: ["not valid XML: line 1", "declares an entity"]),
        Case(testDescription: "a billion laughs", bytes: billionLaughs, says: ["not valid XML: line 1", "declares an entity"]),
        Case(
            testDescription: "an external entity",
            bytes: Array(#"<!DOCTYPE gpx [<!ENTITY x SYSTEM "file:///etc/passwd">]><gpx><trk><name>&x;</name></trk></gpx>"#.utf8),
            says: ["declares an entity"]),
        Case(testDescription: "an undefined entity", bytes: Array("<gpx><trk><name>&nbsp;</name></trk></gpx>".utf8), says: ["undefined entity"]),
        Case(
            testDescription: "a NUL byte", bytes: Array("<gpx><trk>".utf8) + [0] + Array("</trk></gpx>".utf8),
            says: ["not valid XML: line 1, column 11"]),
    ]

    @Test("refused with one line, never a crash", arguments: refused)
    func refusedWithOneLine(_ example: Case) {
        let error = #expect(throws: RouteError.self) { try Route.parse(example.bytes, format: .gpx) }
        #expect(error?.says(example.says) == true, "\(error?.message ?? "no error")")
    }

    struct Named: Sendable, CustomTestStringConvertible {
        var testDescription: String
        var bytes: [UInt8]
        var name: String
    }

    static let readable: [Named] = [
        Named(
            testDescription: "Windows-1252 with é and €", bytes: namedTrack("windows-1252", name: [0x43, 0x61, 0x66, 0xE9, 0x20, 0x80]),
            name: "Café €"),
        // 0x81 is undefined in Windows-1252; WHATWG (and every browser) reads it as U+0081.
        Named(testDescription: "Windows-1252 with 0x81", bytes: namedTrack("windows-1252", name: [0x41, 0x81, 0x42]), name: "A\u{81}B"),
        Named(testDescription: "CP1252 by its other name", bytes: namedTrack("cp1252", name: [0x93, 0x41, 0x94]), name: "\u{201C}A\u{201D}"),
        Named(testDescription: "ISO-8859-1", bytes: namedTrack("ISO-8859-1", name: [0x4D, 0xFC, 0x6E]), name: "Mün"),
        Named(testDescription: "US-ASCII", bytes: namedTrack("US-ASCII", name: Array("Plain".utf8)), name: "Plain"),
        Named(
            testDescription: "UTF-8 with a byte order mark", bytes: [0xEF, 0xBB, 0xBF] + namedTrack("UTF-8", name: Array("Žiri".utf8)), name: "Žiri"),
        Named(
            testDescription: "UTF-16 little-endian", bytes: [0xFF, 0xFE] + utf16(namedTrack("UTF-16", name: Array("Škofja".utf8)), bigEndian: false),
            name: "Škofja"),
        Named(
            testDescription: "UTF-16 big-endian", bytes: [0xFE, 0xFF] + utf16(namedTrack("UTF-16", name: Array("Loka".utf8)), bigEndian: true),
            name: "Loka"),
        Named(testDescription: "CDATA in a name", bytes: namedTrack("UTF-8", name: Array("<![CDATA[Day <1> & more]]>".utf8)), name: "Day <1> & more"),
        Named(testDescription: "character references", bytes: namedTrack("UTF-8", name: Array("Caf&#233; &amp; &#x2014;".utf8)), name: "Café & —"),
        Named(
            testDescription: "a processing instruction among the points",
            bytes: Array(
                #"<gpx><trk><name>PI</name><?garmin hint?><trkseg><trkpt lat="46" lon="14"/><?x?><trkpt lat="46.1" lon="14"/></trkseg></trk></gpx>"#
                    .utf8), name: "PI"),
        Named(
            testDescription: "an undeclared prefix",
            bytes: Array(
                #"<gpx><trk><name>P</name><trkseg><trkpt lat="46" lon="14"><gpxx:x/></trkpt><trkpt lat="46.1" lon="14"/></trkseg></trk></gpx>"#.utf8),
            name: "P"),
    ]

    @Test("read in every accepted encoding, names intact", arguments: readable)
    func readsName(_ example: Named) throws {
        let route = try Route.parse(example.bytes, format: .gpx)
        #expect(route.stages.map(\.name) == [example.name])
        #expect(route.stages.first?.coordinates.count == 2)
    }

    /// The text re-encoded as UTF-16, for documents declared that way.
    static func utf16(_ bytes: [UInt8], bigEndian: Bool) -> [UInt8] {
        String(decoding: bytes, as: UTF8.self).utf16.flatMap { unit in
            bigEndian ? [UInt8(unit >> 8), UInt8(unit & 0xFF)] : [UInt8(unit & 0xFF), UInt8(unit >> 8)]
        }
    }
}
