import Foundation
import MarkerMap
import MarkerSpec
import RoutePlacement
import Testing

/// The pin and callout layers' filters, evaluated from the JSON a map SDK reads: pins in their own
/// layer at the zooms placement gives them, never in the markers' layer, and a callout only for
/// the pin its filter selects.
@Suite("Pin and callout layers")
struct PinLayerTests {
    static func json(_ value: JSONValue) throws -> [String: Any] {
        let bytes = try value.styleBytes()
        return try #require(try JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any])
    }

    @Test(
        "a pin shows in its layer from its minzoom (turned: minzoomTurned; the table: always), never in the markers' layer",
        arguments: [MarkerPlan.Visibility.fit, .table], ScreenPlacement.Rotation.allCases)
    func pinFilters(visibility: MarkerPlan.Visibility, rotation: ScreenPlacement.Rotation) throws {
        let pins = try #require(try Self.json(PinLayer.pinLayer(theme: .day, visibility: visibility, rotation: rotation))["filter"])
        let markers = try #require(
            try Self.json(StyleLayer.layer(theme: .day, visibility: visibility, rotation: rotation))["filter"])
        for zoom in 0...22 {
            let pin: [String: Any] = ["kind": "pin", "pin": 3, "minzoom": 12, "minzoomTurned": 15]
            let key = rotation == .northUp ? 12 : 15
            #expect(try FilterEvaluator(zoom: zoom, properties: pin).truthy(pins) == (visibility == .table || zoom >= key), "zoom \(zoom)")
            #expect(try !FilterEvaluator(zoom: zoom, properties: pin).truthy(markers), "a pin in the markers' layer at \(zoom)")
            let start: [String: Any] = ["kind": "start", "minzoom": 0, "minzoomTurned": 0, "distance": 0.0]
            #expect(try !FilterEvaluator(zoom: zoom, properties: start).truthy(pins))
            #expect(try FilterEvaluator(zoom: zoom, properties: start).truthy(markers))
        }
    }

    @Test("the callout layer shows none until selected, then only the selected pin's, 34 points above its point")
    func calloutFilter() throws {
        let layer = try Self.json(PinLayer.calloutLayer(theme: .night, spriteIDs: true))
        let filter = try #require(layer["filter"])
        for number in 1...3 {
            #expect(try !FilterEvaluator(zoom: 14, properties: ["kind": "pin", "pin": number]).truthy(filter))
        }
        let selectingBytes = try PinLayer.selecting(2).styleBytes()
        let selecting = try JSONSerialization.jsonObject(with: Data(selectingBytes))
        for number in 1...3 {
            #expect(try FilterEvaluator(zoom: 14, properties: ["kind": "pin", "pin": number]).truthy(selecting) == (number == 2))
        }
        // A marker has no `pin`: never selected.
        #expect(try !FilterEvaluator(zoom: 14, properties: ["kind": "start"]).truthy(selecting))
        let layout = try #require(layer["layout"] as? [String: Any])
        #expect(layout["icon-anchor"] as? String == "bottom")
        // The image's bottom is its shadow's margin below the tail's tip: 14 - 34.
        #expect((layout["icon-offset"] as? [Double]) == [0, PinLayer.calloutTipAboveBottom - 34])
        #expect(PinLayer.calloutLift == 34)
    }
}
