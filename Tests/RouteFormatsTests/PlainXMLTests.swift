import Foundation
import TestSupport
import Testing

@testable import RouteModel
@testable import RouteFormats

/// The plain scanner reads common GPX fast and leaves everything else to expat: whatever it
/// accepts must read exactly as expat reads it, and whatever it declines must fail (or read) with
/// expat's own words.
@Suite("GPX read by the plain scanner")
struct PlainXMLTests {
    /// The stages read, or the error, as text.
    static func outcome(_ bytes: [UInt8], method: GPXReader.Method) -> String {
        do {
            let stages = try GPXReader.stages(from: bytes, method: method)
            return stages.map { candidate in
                "\(candidate.label): " + candidate.stage.coordinates.map { "\($0.longitude) \($0.latitude)" }.joined(separator: ", ")
            }.joined(separator: "; ")
        } catch {
            return "error: \(error.message)"
        }
    }

    static func gpx(_ body: String, declaration: String = #"<?xml version="1.0" encoding="UTF-8"?>"#) -> [UInt8] {
        Array((declaration + #"<gpx version="1.1" xmlns="http://www.topografix.com/GPX/1/1">"# + body + "</gpx>").utf8)
    }

    static let points = #"<trkpt lat="46.5" lon="14.25"/><trkpt lat="46.6" lon="14.3"/>"#

    /// Documents the scanner reads itself.
    static let accepted: [(String, [UInt8])] = [
        ("a plain track", gpx("<trk><trkseg>\(points)</trkseg></trk>")),
        ("no declaration", gpx("<trk><trkseg>\(points)</trkseg></trk>", declaration: "")),
        (
            "a declaration in single quotes, lower-case utf-8, standalone",
            gpx("<trk><trkseg>\(points)</trkseg></trk>", declaration: "<?xml version='1.0' encoding='utf-8' standalone='yes' ?>")
        ),
        ("a declaration without encoding", gpx("<trk><trkseg>\(points)</trkseg></trk>", declaration: "<?xml version=\"1.0\"?>\r\n")),
        (
            "comments everywhere",
            Array(("<!-- before --><gpx><!-- a - b --><trk><trkseg>\(points)<!---->\n</trkseg></trk></gpx><!-- after -->\n").utf8)
        ),
        ("a name with references", gpx("<trk><name> Tom &amp; Jerry &#x1F6B2;&#233; &lt;&gt;&quot;&apos; </name><trkseg>\(points)</trkseg></trk>")),
        ("a name in CDATA and text", gpx("<trk><name>a <![CDATA[<b> & ]] ]>]]> c</name><trkseg>\(points)</trkseg></trk>")),
        ("a name across CR LF and lone CR", gpx("<trk><name>one\r\ntwo\rthree\n\r</name><trkseg>\(points)</trkseg></trk>")),
        ("a name with a CR reference", gpx("<trk><name>a&#13;\nb</name><trkseg>\(points)</trkseg></trk>")),
        ("a name with UTF-8", gpx("<trk><name>Kranjska Gora → Vršič 🚲 \u{7F}\u{80}</name><trkseg>\(points)</trkseg></trk>")),
        ("a nested element in a name", gpx("<trk><name>a<b>hidden</b>c</name><trkseg>\(points)</trkseg></trk>")),
        ("spaces inside numbers", gpx(#"<trk><trkseg><trkpt lat=" 46.5 " lon="14.25"/><trkpt lat="46.6&#10;" lon='14.3'/></trkseg></trk>"#)),
        ("references inside numbers", gpx(#"<trk><trkseg><trkpt lat="&#52;6.5" lon="14.25"/><trkpt lat="46.6" lon="1&#x34;.3"/></trkseg></trk>"#)),
        ("exponents and plus signs", gpx(#"<trk><trkseg><trkpt lat="4.65e1" lon="+14.25"/><trkpt lat="46.6" lon="14.3"/></trkseg></trk>"#)),
        ("prefixed names", gpx("<gpx:trk><gpx:trkseg><gpx:trkpt lat=\"1\" lon=\"2\"/><gpx:trkpt lat=\"1.5\" lon=\"2\"/></gpx:trkseg></gpx:trk>")),
        (
            "a route and a track",
            gpx(
                #"<rte><name>r</name><rtept lat="1" lon="2"/><rtept lat="1.5" lon="2"/></rte><trk><trkseg>\#(points)</trkseg><trkseg>\#(points)</trkseg></trk>"#
            )
        ),
        (
            "waypoints and extensions",
            gpx(
                #"<wpt lat="9" lon="9"/><trk><extensions><trkpt lat="5" lon="5"/></extensions><trkseg><trkpt lat="46.5" lon="14.25"><ele>1</ele><extensions><x:a b="c"/></extensions></trkpt><trkpt lat="46.6" lon="14.3"></trkpt></trkseg></trk>"#
            )
        ),
        ("end tags with spaces", gpx("<trk ><trkseg\n>\(points)</trkseg\t></trk\r\n>")),
        ("an empty segment", gpx("<trk><trkseg/><trkseg>\(points)</trkseg></trk>")),
    ]

    @Test("the scanner reads these itself, as expat reads them", arguments: accepted.map(\.0))
    func readsItself(_ name: String) throws {
        let bytes = try #require(Self.accepted.first { $0.0 == name }?.1)
        let plain = try #require(GPXReader.plainStages(bytes[...]), "the scanner declined it")
        let expat = try GPXReader.stages(from: bytes, method: .expat)
        #expect(GPXReader.same(plain, expat))
        #expect(plain.map(\.label) == expat.map(\.label))
    }

    /// Documents the scanner leaves to expat: outside what it checks, or not well-formed.
    static let declined: [(String, [UInt8])] = [
        ("a DOCTYPE", Array("<!DOCTYPE gpx><gpx><trk><trkseg>\(points)</trkseg></trk></gpx>".utf8)),
        ("a processing instruction", gpx("<?pi x?><trk><trkseg>\(points)</trkseg></trk>")),
        ("ISO-8859-1", gpx("<trk><trkseg>\(points)</trkseg></trk>", declaration: #"<?xml version="1.0" encoding="ISO-8859-1"?>"#)),
        ("version 1.1", gpx("<trk><trkseg>\(points)</trkseg></trk>", declaration: #"<?xml version="1.1"?>"#)),
        ("a non-ASCII element name", gpx("<trk><naмe>x</naмe><trkseg>\(points)</trkseg></trk>")),
        ("a name starting with a colon", gpx("<trk><:x/><trkseg>\(points)</trkseg></trk>")),
        ("two dashes in a comment", gpx("<!-- a -- b --><trk><trkseg>\(points)</trkseg></trk>")),
        ("a comment ending in three dashes", gpx("<!-- a ---><trk><trkseg>\(points)</trkseg></trk>")),
        ("]]> in text", gpx("<trk><name>a ]]> b</name><trkseg>\(points)</trkseg></trk>")),
        ("an undefined entity", gpx("<trk><name>&nbsp;</name><trkseg>\(points)</trkseg></trk>")),
        ("a reference to NUL", gpx("<trk><name>&#0;</name><trkseg>\(points)</trkseg></trk>")),
        ("a reference to a surrogate", gpx("<trk><name>&#xD800;</name><trkseg>\(points)</trkseg></trk>")),
        ("a reference past Unicode", gpx("<trk><name>&#x110000;</name><trkseg>\(points)</trkseg></trk>")),
        ("an upper-case X reference", gpx("<trk><name>&#X41;</name><trkseg>\(points)</trkseg></trk>")),
        ("a mismatched end tag", gpx("<trk><trkseg>\(points)</trkseg></trkk>")),
        ("a duplicate attribute", gpx(#"<trk><trkseg><trkpt lat="1" lat="1" lon="2"/>\#(points)</trkseg></trk>"#)),
        ("no space between attributes", gpx(#"<trk><trkseg><trkpt lat="1"lon="2"/>\#(points)</trkseg></trk>"#)),
        (
            "33 attributes",
            gpx("<trk><trkseg><trkpt lat=\"1\" lon=\"2\" " + (0..<31).map { "a\($0)=\"\"" }.joined(separator: " ") + "/>\(points)</trkseg></trk>")
        ),
        ("< in an attribute", gpx(#"<trk><trkseg><trkpt lat="<1" lon="2"/>\#(points)</trkseg></trk>"#)),
        ("junk after the root", gpx("<trk><trkseg>\(points)</trkseg></trk>") + Array("<gpx/>".utf8)),
        ("text before the root", Array("x<gpx><trk><trkseg>\(points)</trkseg></trk></gpx>".utf8)),
        ("cut short", Array(gpx("<trk><trkseg>\(points)</trkseg></trk>").dropLast(3))),
        ("invalid UTF-8", gpx("<trk><name>Caf\u{E9}</name><trkseg>\(points)</trkseg></trk>").map { $0 == 0xC3 ? 0xE9 : $0 }),
        ("U+FFFF", gpx("<trk><name>\u{FFFF}</name><trkseg>\(points)</trkseg></trk>")),
        (
            "an encoded surrogate",
            gpx("<trk><name>@@@</name><trkseg>\(points)</trkseg></trk>").replacing([0x40, 0x40, 0x40], with: [0xED, 0xA0, 0x80])
        ),
        ("an overlong slash", gpx("<trk><name>@@</name><trkseg>\(points)</trkseg></trk>").replacing([0x40, 0x40], with: [0xC0, 0xAF])),
        ("a control character", gpx("<trk><name>\u{1}</name><trkseg>\(points)</trkseg></trk>")),
        ("a NUL byte", gpx("<trk><name>\u{0}</name><trkseg>\(points)</trkseg></trk>")),
        ("a point without lon", gpx(#"<trk><trkseg><trkpt lat="1"/>\#(points)</trkseg></trk>"#)),
        ("a latitude of 91", gpx(#"<trk><trkseg><trkpt lat="91" lon="1"/>\#(points)</trkseg></trk>"#)),
        ("waypoints alone", gpx(#"<wpt lat="1" lon="2"/>"#)),
        ("not GPX", Array("<kml><trk/></kml>".utf8)),
    ]

    @Test("the scanner leaves these to expat, and the outcome is expat's", arguments: declined.map(\.0))
    func leavesToExpat(_ name: String) throws {
        let bytes = try #require(Self.declined.first { $0.0 == name }?.1)
        #expect(GPXReader.plainStages(bytes[...]) == nil)
        #expect(Self.outcome(bytes, method: .plainFirst) == Self.outcome(bytes, method: .expat))
    }

    @Test("every GPX in ../shared/routes is read by the scanner, as expat reads it")
    func realRoutes() throws {
        let folder = Repository.sharedRoutes
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".gpx") }.sorted()
        #expect(names.count >= 5)
        for name in names {
            let bytes = try Fixtures.bytes(folder.appendingPathComponent(name))
            let start = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
            let plain = try #require(GPXReader.plainStages(bytes[start...]), "\(name): the scanner declined it")
            #expect(GPXReader.same(plain, try GPXReader.stages(from: bytes, method: .expat)), "\(name)")
        }
    }

    @Test("thousands of damaged documents read the same both ways")
    func damagedDocuments() {
        var generator = SeededGenerator(seed: 11)
        // Mostly documents the scanner reads, so that many damaged ones are still read by it.
        let sources = Self.accepted.map(\.1) + Self.accepted.map(\.1) + Self.declined.map(\.1)
        let pieces =
            [
                "<!-- c -->", "<x/>", "a", "\n", "&lt;", "<n>t</n>", "<", ">", "/", "\"", "'", "&", ";", "#", "x", "=", " ", "-", "]", "!", "?", ":",
                "\r", "\u{0}", "\u{E9}", "<!--", "-->", "]]>", "<![CDATA[", "&#", "&amp;", "lat", "trkpt", "<trkpt lat=\"1\" lon=\"2\"/>",
                "</trkseg>", "1", ".",
            ]
            .map { Array($0.utf8) } + [[0xFF], [0xC3], [0xEF, 0xBF, 0xBE], [0xF4, 0x90, 0x80, 0x80]]
        var differences: [String] = []
        var readByScanner = 0
        for _ in 0..<5_000 {
            var bytes = sources.randomElement(using: &generator)!
            for _ in 0..<Int.random(in: 1...2, using: &generator) {
                let at = Int.random(in: 0..<bytes.count, using: &generator)
                let piece = pieces.randomElement(using: &generator)!
                switch Int.random(in: 0..<3, using: &generator) {
                case 0: bytes.removeSubrange(at..<min(bytes.count, at + Int.random(in: 1...4, using: &generator)))
                case 1: bytes.insert(contentsOf: piece, at: at)
                default: bytes.replaceSubrange(at..<min(bytes.count, at + piece.count), with: piece)
                }
                if bytes.isEmpty { bytes = [0x3C] }
            }
            if GPXReader.plainStages(bytes[...]) != nil { readByScanner += 1 }
            let plain = Self.outcome(bytes, method: .plainFirst)
            let expat = Self.outcome(bytes, method: .expat)
            if plain != expat { differences.append("\(String(decoding: bytes, as: UTF8.self))\n  plain first: \(plain)\n  expat: \(expat)") }
        }
        let count = differences.count
        #expect(count == 0, "first of those that differ: \(differences.first ?? "")")
        // The comparison means something only if the scanner accepted many of them.
        #expect(readByScanner > 250, "the scanner read only \(readByScanner)")
    }
}
