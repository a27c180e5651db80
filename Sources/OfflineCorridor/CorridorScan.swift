#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import RouteModel

/// The tiles polygons touch, found row by row without testing tile against polygon: a tile is
/// touched if an edge passes through its row within it, or if the top line of its row runs inside
/// a polygon there. (A point of the polygon in a row either meets an edge on the way straight up to
/// the row's top line, within the row, or reaches that line inside the polygon.)
enum CorridorScan {
    /// `polygons` in tiles of `zoom` (x from the antimeridian and unwrapped, y down from the top of
    /// the world): each a list of closed rings.
    static func tiles(of polygons: [[[(x: Double, y: Double)]]], zoom: Int) -> TileRows {
        var runs: [(y: Int, x: ClosedRange<Int>)] = []
        var crossings: [Int: [Double]] = [:]
        func column(_ x: Double) -> Int { Int(max(-1e15, min(1e15, x.rounded(.down)))) }
        for ring in polygons.joined() {
            for (start, end) in zip(ring, ring.dropFirst()) {
                // Every row the edge passes through, with the columns it spans there.
                let (top, bottom) = start.y <= end.y ? (start, end) : (end, start)
                let firstRow = Int(top.y.rounded(.down))
                let lastRow = Int(bottom.y.rounded(.down))
                for row in firstRow...max(firstRow, lastRow) {
                    let (low, high) = (max(Double(row), top.y), min(Double(row + 1), bottom.y))
                    let xs: (Double, Double)
                    if bottom.y == top.y {
                        xs = (top.x, bottom.x)
                    } else {
                        let slope = (bottom.x - top.x) / (bottom.y - top.y)
                        xs = (top.x + (low - top.y) * slope, top.x + (high - top.y) * slope)
                    }
                    runs.append((row, column(min(xs.0, xs.1))...column(max(xs.0, xs.1))))
                }
                // Where it crosses each whole-numbered line: half-open, so a vertex on a line counts once.
                if top.y != bottom.y {
                    var line = Int(top.y.rounded(.up))
                    while Double(line) < bottom.y {
                        if Double(line) >= top.y {
                            let x = top.x + (Double(line) - top.y) * (bottom.x - top.x) / (bottom.y - top.y)
                            crossings[line, default: []].append(x)
                        }
                        line += 1
                    }
                }
            }
        }
        // The inside of each line: between the first and second crossing, the third and fourth, …
        for (line, xs) in crossings {
            let sorted = xs.sorted()
            var index = 0
            while index + 1 < sorted.count {
                runs.append((line, column(sorted[index])...column(sorted[index + 1])))
                index += 2
            }
        }
        return TileRows(zoom: zoom, unsorted: runs)
    }
}
