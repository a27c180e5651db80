import TestSupport
import RoutePlacement
import MarkerSpec
import Testing

@Suite("Zoom table")
struct ZoomTableTests {
    /// The table: z ≥ 16: 1, 15: 2, 14: 5, 11–13: 10, 9–10: 20, 7–8: 30, 5–6: 50, below 5: none.
    @Test(
        arguments: [
            (0...4, nil), (5...6, 50), (7...8, 30), (9...10, 20), (11...13, 10), (14...14, 5), (15...15, 2), (16...22, 1),
        ] as [(ClosedRange<Int>, Int?)])
    func intervals(zooms: ClosedRange<Int>, interval: Int?) {
        for zoom in zooms {
            #expect(ZoomTable.interval(forZoom: zoom) == interval, "zoom \(zoom)")
        }
    }

    @Test(arguments: [-1, 23, 100])
    func noIntervalOutsideTheZooms(zoom: Int) {
        #expect(ZoomTable.interval(forZoom: zoom) == nil)
    }

    /// Worked out by hand from the table: a distance shows where the zoom's interval divides it.
    @Test(arguments: [
        (1, Array(16...22)),
        (2, Array(15...22)),
        (5, [14] + Array(16...22)),
        (10, Array(11...22)),
        (20, Array(9...22)),
        (30, [7, 8] + Array(11...22)),
        (50, [5, 6] + Array(11...22)),
        (60, Array(7...22)),
        (100, [5, 6] + Array(9...22)),
        (7, Array(16...22)),
        (150, Array(5...8) + Array(11...22)),
    ])
    func zoomsOfADistance(distance: Int, zooms: [Int]) {
        #expect(ZoomTable.zooms(forStep: distance) == zooms)
    }
}
