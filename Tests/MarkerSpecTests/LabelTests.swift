import Testing

@testable import MarkerSpec

@Suite("Labels and markers")
struct LabelTests {
    @Test(
        "numbers follow MARKER.md: whole from 10 (half up), one decimal below unless whole",
        arguments: [
            (0.0, "0"), (0.4, "0.4"), (1, "1"), (3, "3"), (7.5, "7.5"), (7.25, "7.3"), (7.04, "7"),
            (9.94, "9.9"), (9.96, "10"), (10, "10"), (10.4, "10"), (10.5, "11"), (122.5, "123"),
            (123.49, "123"), (1234, "1234"), (12345, "12345"), (99999.6, "100000"),
        ])
    func number(distance: Double, expected: String) {
        #expect(Label.number(for: distance) == expected)
    }

    @Test("a label is number and unit with no space")
    func label() throws {
        #expect(try Marker(kind: .end, distance: 123, unit: .km).label == "123km")
        #expect(try Marker(kind: .distance, distance: 7.5, unit: .mi).label == "7.5mi")
        #expect(try Marker(kind: .distance, distance: 7.5, unit: .nmi).label == "7.5nmi")
        #expect(try Marker(kind: .start, distance: 0).label == "0km")
    }

    @Test("a unit is its length in metres", arguments: [(Marker.Unit.km, 1000.0), (.mi, 1609.344), (.nmi, 1852)])
    func metres(unit: Marker.Unit, metres: Double) {
        #expect(unit.metres == metres)
    }

    @Test(
        "impossible markers are refused with a reason",
        arguments: [
            (Marker.Kind.distance, -1.0, "negative"),
            (.distance, .nan, "finite"),
            (.distance, .infinity, "finite"),
            (.end, -.infinity, "finite"),
            (.distance, 100_000.5, "largest"),
            (.start, -5, "negative"),
            (.combined, 5, "combined is made from the starts and ends it joins"),
        ])
    func invalidMarker(kind: Marker.Kind, distance: Double, reason: String) {
        #expect {
            try Marker(kind: kind, distance: distance)
        } throws: { error in
            "\(error)".contains(reason)
        }
    }

    @Test("counting on across stages, a start reads the distance so far")
    func startReadsDistanceSoFar() throws {
        #expect(try Marker(kind: .start, distance: 75.03).label == "75km")
        #expect(try Marker(kind: .start, distance: 7.46, unit: .mi).label == "7.5mi")
    }

    @Test("a combined marker reads its parts in order, and equals another that reads the same")
    func combined() throws {
        let loop = try Marker(combining: [Marker.Part(kind: .start, distance: 0), Marker.Part(kind: .end, distance: 8.62)])
        #expect(loop.label == "start0km_end8.6km")
        #expect(loop.kind == .combined)
        #expect(loop.number == "8.6")
        let same = try Marker(combining: [Marker.Part(kind: .start, distance: 0.01), Marker.Part(kind: .end, distance: 8.6)])
        #expect(loop == same)
        #expect(Set([loop, same]).count == 1)
        let reversed = try Marker(combining: [Marker.Part(kind: .end, distance: 8.6), Marker.Part(kind: .start, distance: 0)])
        #expect(loop != reversed)
        #expect(reversed.label == "end8.6km_start0km")
    }

    @Test("a combined marker joins distance and countdown readings too: `3km | 17km`, spelled by kind")
    func combinedReadings() throws {
        let outAndBack = try Marker(combining: [Marker.Part(kind: .distance, distance: 3), Marker.Part(kind: .distance, distance: 17)])
        #expect(outAndBack.label == "distance3km_distance17km")
        let lap = try Marker(combining: [
            Marker.Part(kind: .start, distance: 0), Marker.Part(kind: .distance, distance: 5), Marker.Part(kind: .countdown, distance: 2),
            Marker.Part(kind: .end, distance: 10),
        ])
        #expect(lap.label == "start0km_distance5km_countdown2km_end10km")
        for marker in [outAndBack, lap] {
            let request = try MarkerRequest(marker: marker, theme: .day, scale: 2)
            let image = MarkerImage(request: request, png: [1, 2, 3], width: 1, height: 1, anchor: PixelPoint(x: 0, y: 0))
            #expect(ImageName.parse(image.fileName)?.request == request)
        }
    }

    @Test(
        "combined markers join 2 to 6 readings, never another combined marker",
        arguments: [
            ([Marker.Kind.start], "got 1"), ([.start, .end, .start, .end, .start, .end, .start], "got 7"),
            ([.start, .combined], "not other combined markers"),
        ])
    func combinedRefused(kinds: [Marker.Kind], reason: String) throws {
        let parts = try kinds.map { kind throws(SpecError) in try Marker.Part(kind: kind, distance: 1) }
        #expect {
            try Marker(combining: parts)
        } throws: { error in
            "\(error)".contains(reason)
        }
    }

    @Test("a scale reads in its one spelling: 1, 1.5, 2, 3, 4", arguments: ["1", "1.5", "2", "3", "4"])
    func scaleSpelling(text: String) throws {
        let scale = try MarkerScale(text)
        #expect(scale.description == text)
        #expect(scale.factor == Double(text))
        #expect(MarkerScale(exactly: scale.factor) == scale)
    }

    @Test("other spellings and scales are refused", arguments: ["0", "5", "2.5", "1.50", "01", "1.0", "1,5", "", " 2", "1.5x", "-1", "NaN"])
    func scaleRefused(text: String) {
        #expect(throws: SpecError(.scale, "must be 1, 1.5, 2, 3 or 4 (got '\(text)')")) { try MarkerScale(text) }
    }

    @Test("scales outside 1...4 are refused", arguments: [0, 5, -2, 1000])
    func invalidScale(scale: MarkerScale) throws {
        let marker = try Marker(kind: .distance, distance: 10)
        #expect(throws: SpecError(.scale, "must be 1, 1.5, 2, 3 or 4 (got \(scale))")) {
            try MarkerRequest(marker: marker, theme: .day, scale: scale)
        }
    }
}

@Suite("Image names")
struct ImageNameTests {
    @Test(
        "a rendered name reads back into the same request",
        arguments: [
            (Marker.Kind.end, 123.0, Marker.Unit.km, Theme.night, 2), (.start, 0, .mi, .day, 1), (.distance, 7.5, .km, .day, 3),
            (.distance, 12345, .mi, .night, 1), (.start, 75, .km, .night, 3), (.distance, 7.5, .nmi, .day, 2),
            (.end, 9999, .nmi, .night, 3), (.start, 0, .nmi, .night, 1), (.countdown, 45, .km, .day, 2), (.end, 123, .km, .night, 4),
            (.countdown, 0.5, .mi, .night, 3), (.end, 7.5, .km, .day, MarkerScale.oneAndAHalf),
        ])
    func roundTrip(kind: Marker.Kind, distance: Double, unit: Marker.Unit, theme: Theme, scale: MarkerScale) throws {
        try roundTrip(try MarkerRequest(marker: Marker(kind: kind, distance: distance, unit: unit), theme: theme, scale: scale))
    }

    @Test(
        "a combined marker's name reads back into the same request",
        arguments: [
            [(Marker.Kind.start, 0.0), (.end, 8.6)], [(.end, 24.04), (.start, 0)], [(.end, 75), (.start, 75)],
            [(.start, 0), (.end, 0), (.start, 0), (.end, 0), (.start, 0), (.end, 0.3)],
        ])
    func combinedRoundTrip(parts: [(Marker.Kind, Double)]) throws {
        for unit in Marker.Unit.allCases {
            for mark in Label.DecimalMark.allCases {
                let marker = try Marker(
                    combining: try parts.map { kind, distance throws(SpecError) in try Marker.Part(kind: kind, distance: distance, mark: mark) },
                    unit: unit)
                try roundTrip(try MarkerRequest(marker: marker, theme: .day, scale: 2))
            }
        }
    }

    @Test("a name spells the locale's decimal mark and reads it back", arguments: [(Marker.Kind.distance, 7.5), (.end, 0.4), (.start, 9.9)])
    func commaRoundTrip(kind: Marker.Kind, distance: Double) throws {
        for unit in Marker.Unit.allCases {
            let request = try MarkerRequest(marker: Marker(kind: kind, distance: distance, unit: unit, mark: .comma), theme: .night, scale: 3)
            #expect(request.baseName.contains(","))
            try roundTrip(request)
        }
    }

    private func roundTrip(_ request: MarkerRequest) throws {
        // Any bytes serve: the name carries their hash, whatever they are.
        let rendered = MarkerImage(request: request, png: Array(request.baseName.utf8), width: 1, height: 1, anchor: PixelPoint(x: 0, y: 0))
        let parsed = try #require(ImageName.parse(rendered.fileName))
        #expect(parsed.request == request)
        #expect(parsed.hashPrefix == String(rendered.sha256.prefix(10)))
        #expect(ImageName.parse(String(rendered.fileName.dropLast(4)))?.request == request)
    }

    @Test(
        "names that do not describe a marker do not parse",
        arguments: [
            "", "end-123km-night@2x", "end-123km-night@5x-3f9a1c2b7d", "end-123km-night@0x-3f9a1c2b7d", "finish-123km-night@2x-3f9a1c2b7d",
            "end-123km-dusk@2x-3f9a1c2b7d", "end-123km-night@2x-3F9A1C2B7D", "end-123.0km-night@2x-3f9a1c2b7d",
            "end-0123km-night@2x-3f9a1c2b7d", "start-5.0km-day@1x-3f9a1c2b7d", "end-123000km-night@2x-3f9a1c2b7d",
            "combined-start0km-day@1x-3f9a1c2b7d", "combined-start0km_finish3km-day@1x-3f9a1c2b7d",
            "combined-start0km_end3mi-day@1x-3f9a1c2b7d", "combined-start0km__end3km-day@1x-3f9a1c2b7d",
            "combined-combined3km_end4km-day@1x-3f9a1c2b7d", "combined-start0km_end03km-day@1x-3f9a1c2b7d",
            "combined-distance3km_distance3.0km-day@1x-3f9a1c2b7d", "combined-distance03km_end4km-day@1x-3f9a1c2b7d",
            "combined-start0km_end1km_start1km_end2km_start2km_end3km_start3km-day@1x-3f9a1c2b7d", "combined-0km_3km-day@1x-3f9a1c2b7d",
            "combined-start0km_end3km_-day@1x-3f9a1c2b7d", "start-start0km_end3km-day@1x-3f9a1c2b7d",
            "end-123km-brand@2x-3f9a1c2b7d", "../end-123km-night@2x-3f9a1c2b7d",
            "end-123km-night@\u{0662}x-3f9a1c2b7d", "end-\u{0661}\u{0662}\u{0663}km-night@2x-3f9a1c2b7d",
            "end-123km-night@2x-3f9a1c2b7d\u{301}", "end-7.5.5km-night@2x-3f9a1c2b7d", "end-.5km-night@2x-3f9a1c2b7d",
            "end-7,50km-night@2x-3f9a1c2b7d", "end-12,0km-night@2x-3f9a1c2b7d", "end-,5km-night@2x-3f9a1c2b7d",
            "combined-start0,5km_end3.5km-day@1x-3f9a1c2b7d", "end-7\u{066B}5km-night@2x-3f9a1c2b7d",
            "end-123KM-night@2x-3f9a1c2b7d", "end-123km-night@2x-3f9a1c2b7", "end-123km-night@2x-3f9a1c2b7d0",
            "end--night@2x-3f9a1c2b7d", "end-km-night@2x-3f9a1c2b7d", "-123km-night@2x-3f9a1c2b7d", "end-123km-night@2-3f9a1c2b7d",
            "end-123km-night2x-3f9a1c2b7d", "@-", "-", "end-123km-night@2x-3f9a1c2b7d.png.png",
        ])
    func rejects(name: String) {
        #expect(ImageName.parse(name) == nil)
    }
}
