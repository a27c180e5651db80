import ArgumentParser
import Foundation
import MarkerPins
import MarkerRender
import MarkerSpec

extension MarkerBench {
    /// Pins and callouts against distance markers, drawn and encoded the same way, in one run.
    struct PinsRun: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "pins",
            abstract: "Pins (of 200 colours, and as a route draws them), callouts and callouts with a photo, each against a distance marker drawn and encoded in the same run (ms per image)."
        )

        @Option(help: "Images of each kind per run.") var count = 200
        @Option(help: "Interleaved runs; each figure is the median run.") var runs = 5
        @Option(help: "A JPEG for the callout's photo.") var photo = "Tests/Fixtures/photos/lake.jpg"

        func validate() throws {
            guard (1...100_000).contains(count) else { throw ValidationError("--count must be 1 to 100000") }
            guard (1...100).contains(runs) else { throw ValidationError("--runs must be 1 to 100") }
        }

        func run() throws {
            let photoBytes = Array(try Data(contentsOf: URL(fileURLWithPath: photo)))
            let markers = try MarkerRenderer()
            let pins = try PinRenderer()
            let callouts = try CalloutRenderer()
            let icons = PinIcon.allCases
            // Distinct images, as a route batch draws: no two the same.
            let markerRequests = try (0..<count).map { try MarkerRequest(marker: Marker(kind: .distance, distance: Double($0 + 1)), theme: .day, scale: 2) }
            let pinRequests = try (0..<count).map {
                try PinRequest(pin: Pin(icon: icons[$0 % icons.count], colour: Colour(rgb: 30 + $0 % 200, 90, 200)), theme: .day, scale: 2)
            }
            // As a route's batch draws them: the twelve icons in their category colours, both themes,
            // so pins of one category share their body (the batch draws each of these once).
            let routePinRequests = try (0..<count).map {
                try PinRequest(pin: Pin(icon: icons[$0 % icons.count]), theme: $0 / icons.count % 2 == 0 ? .day : .night, scale: 2)
            }
            let calloutRequests = try (0..<count).map {
                try CalloutRequest(callout: Callout(title: "Water stop \($0)", lines: ["Tap by the door", "1,226 m"], badge: .init(text: "open")), theme: .day, scale: 2)
            }
            let photoRequests = try (0..<count).map {
                try CalloutRequest(callout: Callout(title: "Jezero \($0)", lines: ["A lake below the ridge"], photo: photoBytes), theme: .day, scale: 2)
            }
            // As one route's batch draws them: each of its pictures once, by a renderer that has drawn
            // none of them yet (made outside the timing), so a pin's body is kept only for the icons
            // after the first of its colour. Markers the same way, as many.
            let batchPins = try [Theme.day, .night].flatMap { theme in try icons.map { try PinRequest(pin: Pin(icon: $0), theme: theme, scale: 2) } }
            let batchMarkers = try (0..<batchPins.count).map { (index: Int) throws -> MarkerRequest in
                let theme: Theme = index % 2 == 0 ? .day : .night
                return try MarkerRequest(marker: Marker(kind: .distance, distance: Double(10 * (index + 1))), theme: theme, scale: 2)
            }
            let batches = max(1, count / batchPins.count)
            var times: [String: [Double]] = [:]
            func time(_ name: String, images: Int = count, _ body: () throws -> Void) rethrows {
                let start = ContinuousClock.now
                try body()
                let elapsed = ContinuousClock.now - start
                let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
                times[name, default: []].append(seconds * 1000 / Double(images))
            }
            /// Each batch by a fresh renderer, timing only the drawing. Each renderer first draws
            /// pictures the batch does not hold, untimed, at the batch's scale: a route's renderer
            /// rasterises its glyphs once for the whole route, not once for these few pictures.
            func timeBatches<Renderer>(_ name: String, make: () throws -> Renderer, warm: (Renderer) throws -> Void, draw: (Renderer) throws -> Void) throws {
                let renderers = try (0..<batches).map { _ in try make() }
                for renderer in renderers { try warm(renderer) }
                try time(name, images: batches * batchPins.count) { for renderer in renderers { try draw(renderer) } }
            }
            for _ in 0..<runs {
                try time("distance marker") { for request in markerRequests { _ = try markers.render(request) } }
                try time("pin") { for request in pinRequests { _ = try pins.render(request) } }
                try time("pin, a route's") { for request in routePinRequests { _ = try pins.render(request) } }
                try time("callout") { for request in calloutRequests { _ = try callouts.render(request) } }
                try time("callout with a photo") { for request in photoRequests { _ = try callouts.render(request) } }
                try timeBatches(
                    "distance marker, a batch's", make: { try MarkerRenderer() },
                    warm: { renderer in for distance in [1234.0, 5678, 90] { _ = try renderer.render(try MarkerRequest(marker: Marker(kind: .distance, distance: distance), theme: .day, scale: 2)) } }
                ) { renderer in
                    for request in batchMarkers { _ = try renderer.render(request) }
                }
                try timeBatches(
                    "pin, a batch's", make: { try PinRenderer() },
                    warm: { _ = try $0.render(try PinRequest(pin: Pin(text: "A", colour: Colour(rgb: 1, 2, 3)), theme: .day, scale: 2)) }
                ) { renderer in
                    for request in batchPins { _ = try renderer.render(request) }
                }
            }
            let median = { (name: String) in (times[name] ?? []).sorted()[runs / 2] }
            let baseline = median("distance marker")
            print("\(count) images of each kind at @2x, drawn and encoded as PNG; median of \(runs) interleaved runs, one thread")
            for name in ["distance marker", "pin", "pin, a route's", "callout", "callout with a photo"] {
                let padded = name.padding(toLength: 28, withPad: " ", startingAt: 0)
                print(padded + String(format: "%8.3f ms per image  %7.2fx the distance marker", median(name), median(name) / baseline))
            }
            print("each picture of a route's batch once (12 icons, both themes), each batch by a renderer that drew only other pictures before")
            let batchBaseline = median("distance marker, a batch's")
            for name in ["distance marker, a batch's", "pin, a batch's"] {
                let padded = name.padding(toLength: 28, withPad: " ", startingAt: 0)
                print(padded + String(format: "%8.3f ms per image  %7.2fx the distance marker", median(name), median(name) / batchBaseline))
            }
        }
    }
}
