import RouteModel

/// The tiles of one zoom a shape touches, row by row: for each row `y`, sorted and disjoint runs of
/// columns `x` (`0..<2^zoom`), so a corridor thousands of tiles long is held as a few runs a row.
public struct TileRows: Sendable, Equatable {
    /// A run of tiles in one row: columns `xs`.
    public struct Run: Sendable, Equatable {
        public var y: Int
        public var xs: ClosedRange<Int>
    }

    public let zoom: Int
    /// By row, then column.
    public let runs: [Run]

    /// How many tiles.
    public var count: Int { runs.reduce(0) { $0 + $1.xs.count } }

    /// Each tile as `(x, y)`, row by row.
    public var tiles: [(x: Int, y: Int)] { runs.flatMap { run in run.xs.map { (x: $0, y: run.y) } } }

    /// Runs as given, in any order and overlapping, with columns past the antimeridian wrapped
    /// into the world (a run as wide as the world or wider is the whole row) and rows outside it dropped.
    init(zoom: Int, unsorted: [(y: Int, x: ClosedRange<Int>)]) {
        self.zoom = zoom
        let width = 1 << zoom
        var pieces: [(y: Int, x: ClosedRange<Int>)] = []
        pieces.reserveCapacity(unsorted.count)
        for (y, xs) in unsorted where (0..<width).contains(y) {
            if xs.count >= width {
                pieces.append((y, 0...(width - 1)))
                continue
            }
            let start = ((xs.lowerBound % width) + width) % width
            let end = start + xs.count - 1
            if end < width {
                pieces.append((y, start...end))
            } else {
                pieces.append((y, start...(width - 1)))
                pieces.append((y, 0...(end - width)))
            }
        }
        pieces.sort { $0.y != $1.y ? $0.y < $1.y : $0.x.lowerBound < $1.x.lowerBound }
        var runs: [Run] = []
        for (y, xs) in pieces {
            // Runs that overlap or touch join.
            if let last = runs.last, last.y == y, xs.lowerBound <= last.xs.upperBound + 1 {
                runs[runs.count - 1].xs = last.xs.lowerBound...max(last.xs.upperBound, xs.upperBound)
            } else {
                runs.append(Run(y: y, xs: xs))
            }
        }
        self.runs = runs
    }

    /// The tiles of the zoom one out that hold these: every tile's parent, once.
    public func parents() -> TileRows {
        TileRows(zoom: zoom - 1, unsorted: runs.map { (y: $0.y >> 1, x: ($0.xs.lowerBound >> 1)...($0.xs.upperBound >> 1)) })
    }

    /// Whether the tile is in the set.
    public func contains(x: Int, y: Int) -> Bool {
        var (low, high) = (0, runs.count)
        while low < high {
            let middle = (low + high) / 2
            let run = runs[middle]
            if run.y < y || (run.y == y && run.xs.upperBound < x) { low = middle + 1 } else { high = middle }
        }
        return low < runs.count && runs[low].y == y && runs[low].xs.contains(x)
    }
}
