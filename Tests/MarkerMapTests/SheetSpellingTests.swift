import MarkerMap
import MarkerSpec
import Testing

/// The spelling a sheet's URL carries: one per set of pictures, read back exactly, bounded before use.
@Suite("Sprite sheet spellings")
struct SheetSpellingTests {
    static func distance(_ value: Double, _ unit: Marker.Unit = .km) throws -> Marker { try Marker(kind: .distance, distance: value, unit: unit) }
    static func start(_ value: Double) throws -> Marker { try Marker(kind: .start, distance: value) }
    static func end(_ value: Double) throws -> Marker { try Marker(kind: .end, distance: value) }

    struct Case: Sendable, CustomTestStringConvertible {
        let markers: @Sendable () throws -> [Marker]
        let spelling: String
        var testDescription: String { spelling }
    }

    static let cases: [Case] = [
        Case(markers: { [try distance(3), try distance(1), try distance(2)] }, spelling: "night_km_d1-3"),
        Case(markers: { [try start(0), try distance(1), try distance(2), try end(2.5)] }, spelling: "night_km_d1-2_s0_e2.5"),
        Case(markers: { [try distance(5), try distance(1), try distance(2), try distance(7), try distance(8)] }, spelling: "night_km_d1-2_d5_d7-8"),
        Case(markers: { [try distance(1.5), try distance(1), try distance(2)] }, spelling: "night_km_d1_d1.5_d2"),
        Case(
            markers: { [try Marker(kind: .countdown, distance: 2), try end(3), try distance(1), try Marker(kind: .countdown, distance: 1)] },
            spelling: "night_km_d1_t1-2_e3"),
        Case(markers: { [try Marker(kind: .countdown, distance: 0.5), try Marker(kind: .countdown, distance: 3)] }, spelling: "night_km_t0.5_t3"),
        Case(
            markers: { [try Marker(kind: .distance, distance: 1.5, mark: .comma), try distance(1), try distance(2)] },
            spelling: "night_km_d1_d1,5_d2"),
        // Two pictures of one value: the point and the comma, by spelling.
        Case(
            markers: { [try Marker(kind: .distance, distance: 1.5, mark: .comma), try distance(1.5), try end(2.5)] },
            spelling: "night_km_d1,5_d1.5_e2.5"),
        Case(
            markers: {
                [
                    try Marker(combining: [try Marker.Part(kind: .start, distance: 0), try Marker.Part(kind: .end, distance: 8.6)]),
                    try end(24.04), try start(24.04),
                ]
            }, spelling: "night_km_cs0e8.6_e24_s24"),
        // An out-and-back's legs, and a lap course's start with the laps passing it.
        Case(
            markers: {
                [
                    try Marker(combining: [try Marker.Part(kind: .distance, distance: 3), try Marker.Part(kind: .distance, distance: 17)]),
                    try Marker(combining: [
                        try Marker.Part(kind: .start, distance: 0), try Marker.Part(kind: .distance, distance: 5),
                        try Marker.Part(kind: .countdown, distance: 7.5), try Marker.Part(kind: .end, distance: 15),
                    ]),
                ]
            }, spelling: "night_km_cd3d17_cs0d5t7.5e15"),
    ]

    @Test("pictures are spelled in one canonical order that reads back as the same pictures", arguments: cases)
    func spelling(_ example: Case) throws {
        let spelling = try SheetSpelling(theme: .night, unit: .km, markers: try example.markers())
        #expect(spelling.description == example.spelling)
        let read = try #require(SheetSpelling(parsing: example.spelling[...], maximumPictures: 100))
        #expect(read == spelling)
        #expect(Set(read.markers) == Set(try example.markers()))
    }

    @Test(
        "what is not the canonical spelling, or holds more than allowed, does not read",
        arguments: [
            "night_km_d2_d1", "night_km_d1_d2", "night_km_d1-1", "night_km_d01", "night_km_d1-02", "night_km_s0_d1", "night_km_d3-1",
            "night_km_", "night_km", "dusk_km_d1", "night_m_d1", "night_km_x1", "night_km_s", "night_km_c", "night_km_cs0",
            "night_km_cx1e2", "night_km_cc1e2", "night_km_cd01e2", "night_km_cs0e1s2e3s4e5s6", "night_km_s1e3", "night_km_e1.50",
            "night_km_d1-100001",
            "night_km_d1-101", "night_km_d999999999999999999", "night_km_s-1", "night_km_s0_s0", "night_km_d1.5_d1,5",
            "night_km_e1,50", "night_km_d1,0", "night_km_ce1,5s1.5", "night_km_t2_t1", "night_km_t1_d1", "night_km_t1-1", "night_km_ct1.0e2",
        ])
    func notCanonical(_ text: String) {
        #expect(SheetSpelling(parsing: text[...], maximumPictures: 100) == nil)
    }

    @Test("a limit of 100 pictures reads d1-100 and refuses d1-101 without making them")
    func pictureLimit() {
        #expect(SheetSpelling(parsing: "day_mi_d1-100", maximumPictures: 100)?.markers.count == 100)
        #expect(SheetSpelling(parsing: "day_mi_d1-101", maximumPictures: 100) == nil)
        #expect(SheetSpelling(parsing: "day_mi_d1-50_d52-102", maximumPictures: 100) == nil)
    }

    @Test("split keeps the canonical order, halves what does not fit, and refuses one picture that never fits")
    func split() throws {
        let markers = try [Self.start(0)] + (1...10).map { try Self.distance(Double($0)) } + [try Self.end(10.2)]
        let parts = try SheetSpelling.split(theme: .day, unit: .km, markers: markers, maximumPictures: 5) { chunk in chunk.count <= 2 }
        #expect(parts.map(\.description) == ["day_km_d1-2", "day_km_d3-4", "day_km_d5-6", "day_km_d7-8", "day_km_d9-10", "day_km_s0_e10"])
        #expect(throws: MapError.self) {
            _ = try SheetSpelling.split(theme: .day, unit: .km, markers: markers, maximumPictures: 5) { _ in false }
        }
    }
}
