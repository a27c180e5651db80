import Foundation
import HummingbirdTesting
import MarkerPixels
import MarkerRender
import MarkerService
import MarkerPNG
import TestSupport
import Testing

/// The snippets for web apps in docs/service.md, run in MapLibre GL JS (PyPI's `maplibre`) in headless
/// Chromium against the service on loopback: the document's sprites, and icons fetched by id.
@Suite("The service in MapLibre GL JS", .serialized)
struct ServiceSnippetTests {
    struct Shown: Decodable {
        struct Feature: Decodable {
            let label: String
            let zooms: [Int]
        }
        let zoom: Double
        let labels: [String]
        let features: [Feature]

        /// The labels of the markers the document's zoom filter shows at the map's zoom.
        var expected: [String] { features.filter { $0.zooms.contains(Int(zoom.rounded(.down))) }.map(\.label).sorted() }
    }

    @Test("sprites from the document and icons resolved by id show the same markers, the ones the filter shows, pixel for pixel")
    func snippets() async throws {
        try await Exclusively.run {
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("snippets-\(UUID().uuidString)").path
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(atPath: folder) }
            let route = Repository.sharedRoute("korita-zbevnica.gpx")
            try await LiveService.run { client in
                let service = "http://127.0.0.1:\(try #require(client.port))"
                var shown: [String: Shown] = [:]
                for mode in ["sprite", "resolver", "none"] {
                    let output = try await Python.run([Python.mapScript("service_snippet.py"), service, route, mode, "\(folder)/\(mode).png"])
                    shown[mode] = try JSONDecoder().decode(Shown.self, from: Data(output.utf8))
                }
                let sprite = try #require(shown["sprite"])
                let resolver = try #require(shown["resolver"])
                #expect(!sprite.labels.isEmpty)
                #expect(sprite.labels.sorted() == sprite.expected)
                #expect(resolver.labels.sorted() == resolver.expected)
                // The control: without sheets or a resolver the map has no picture for any marker.
                #expect(shown["none"]?.labels == [])

                let withSheets = try PNGDecoder.decode([UInt8](Data(contentsOf: URL(fileURLWithPath: "\(folder)/sprite.png"))))
                let resolved = try PNGDecoder.decode([UInt8](Data(contentsOf: URL(fileURLWithPath: "\(folder)/resolver.png"))))
                let background = try PNGDecoder.decode([UInt8](Data(contentsOf: URL(fileURLWithPath: "\(folder)/none.png"))))
                #expect(withSheets.width == resolved.width && withSheets.height == resolved.height)
                var differing = 0
                var markerPixels = 0
                for y in 0..<withSheets.height {
                    for x in 0..<withSheets.width {
                        if withSheets[x, y] != resolved[x, y] { differing += 1 }
                        if withSheets[x, y] != background[x, y] { markerPixels += 1 }
                    }
                }
                #expect(differing == 0, "\(differing) pixels differ between the sprite and the resolver screenshots")
                #expect(markerPixels > 1000, "the markers cover only \(markerPixels) pixels")
            }
            // A service with a signing key: the signed resolver shows the same markers, pixel for pixel.
            var signing = LiveService.configuration
            signing.signingKeyFile = try SigningTests.keyFile(SigningTests.hexKey)
            try await LiveService.run(signing) { client in
                let service = "http://127.0.0.1:\(try #require(client.port))"
                let output = try await Python.run([Python.mapScript("service_snippet.py"), service, route, "signed", "\(folder)/signed.png"])
                let signed = try JSONDecoder().decode(Shown.self, from: Data(output.utf8))
                #expect(!signed.labels.isEmpty)
                #expect(signed.labels.sorted() == signed.expected)
                let withSheets = try PNGDecoder.decode([UInt8](Data(contentsOf: URL(fileURLWithPath: "\(folder)/sprite.png"))))
                let resolved = try PNGDecoder.decode([UInt8](Data(contentsOf: URL(fileURLWithPath: "\(folder)/signed.png"))))
                #expect(withSheets == resolved, "the signed resolver's screenshot differs from the sprite sheets'")
            }
        }
    }
}
