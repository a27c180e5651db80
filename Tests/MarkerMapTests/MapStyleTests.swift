import Foundation
import MarkerFiles
import MarkerMap
import MarkerSpec
import SystemPackage
import Testing

@Suite("style.json")
struct MapStyleTests {
    @Test("a complete style: the sprite array, the source and a layer per theme with prefixed icons, the first shown")
    func structure() throws {
        let sheets = [
            MapStyle.Sheet(id: "markerpaint-day", name: "sprite-day-0123456789"),
            MapStyle.Sheet(id: "markerpaint-night", name: "sprite-night-abcdefabcd"),
            MapStyle.Sheet(id: "markerpaint-night-2", name: "sprite-night-9876543210"),
        ]
        let bytes = try MapStyle.json(themes: [.day, .night], sheets: sheets, baseURL: "https://cdn.example.com/ride/")
        let style = try #require(try JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any])
        #expect(style["version"] as? Int == 8)
        let sprite = try #require(style["sprite"] as? [[String: String]])
        #expect(sprite.map { $0["id"] } == ["markerpaint-day", "markerpaint-night", "markerpaint-night-2"])
        #expect(sprite.map { $0["url"] } == sheets.map { "https://cdn.example.com/ride/" + $0.name })
        let source = try #require((style["sources"] as? [String: [String: String]])?[StyleLayer.sourceID])
        #expect(source == ["type": "geojson", "data": "https://cdn.example.com/ride/markers.geojson"])
        let layers = try #require(style["layers"] as? [[String: Any]])
        #expect(layers.map { $0["id"] as? String } == ["markerpaint-markers-day", "markerpaint-markers-night"])
        #expect(layers.map { ($0["layout"] as? [String: Any])?["visibility"] as? String } == ["visible", "none"])
        let icon = try #require((layers[1]["layout"] as? [String: Any])?["icon-image"] as? [Any])
        #expect(icon.first as? String == "concat")
        #expect((icon[2] as? String) == ":")
    }

    @Test(
        "base URLs are absolute http, https or file URLs with nothing to escape",
        arguments: [
            ("https://cdn.example.com/ride", "https://cdn.example.com/ride/"), ("http://localhost:8080/", "http://localhost:8080/"),
            ("file:///srv/ride%20one/", "file:///srv/ride%20one/"),
        ])
    func goodBaseURLs(text: String, expected: String) throws {
        #expect(try MapStyle.baseURL(checking: text) == expected)
    }

    @Test(
        "other base URLs are refused",
        arguments: [
            "", "cdn.example.com/ride", "ftp://example.com/", "https://", "file://host/x", "https://example.com/a b/",
            "https://example.com/?q=1", "https://example.com/#x", "https://example.com/\"/", "https://exämple.com/",
            "https://example.com/" + String(repeating: "a", count: 2100),
        ])
    func badBaseURLs(text: String) {
        #expect(throws: MapError.self) { try MapStyle.baseURL(checking: text) }
    }

    @Test(
        "a folder's file URL is absolute, normalised and percent-encoded",
        arguments: [("/srv/ride", "file:///srv/ride/"), ("/srv/a b/ü/../c/", "file:///srv/a%20b/c/"), ("/", "file:///")])
    func fileURLs(path: String, expected: String) {
        #expect(FileURL.folder(FilePath(path)) == expected)
    }

    @Test("a relative folder's file URL starts from the working directory")
    func relativeFileURL() {
        let cwd = FileManager.default.currentDirectoryPath
        #expect(FileURL.folder(FilePath("out")) == FileURL.folder(FilePath(cwd + "/out")))
        #expect(FileURL.folder(FilePath("out")).hasPrefix("file:///"))
    }
}
