/// A route laid out once for matching positions to it: its stages end to end as short straight
/// pieces in Earth-centred metres, under a tree of boxes, so a position finds the route near it
/// without looking at every segment.
///
/// Distances along the course are the stages' ellipsoidal lengths, stage after stage: the way
/// between one stage's end and the next one's start is not part of it.
public struct RouteCourse: Sendable {
    /// A straight piece of the route: a segment of a stage, or a part of a long one.
    struct Piece: Sendable {
        var start: EarthPoint
        /// From the start to the end.
        var direction: EarthPoint
        /// 1 / |direction|², 0 for a piece of no length.
        var inverseSquaredChord: Double
        /// Metres along the course at the start.
        var along: Double
        /// Metres along the course from start to end (the geodesic's, not the chord's).
        var length: Double
        /// 0-based.
        var stage: Int32
    }

    /// A box around the pieces under a node, and the distances along the course they cover.
    struct Box: Sendable {
        var low: EarthPoint
        var high: EarthPoint
        var alongLow: Double
        var alongHigh: Double

        /// Metres from `point` to the nearest point of the box, squared (0 inside).
        func squaredDistance(to point: EarthPoint) -> Double {
            let dx = max(low.x - point.x, 0, point.x - high.x)
            let dy = max(low.y - point.y, 0, point.y - high.y)
            let dz = max(low.z - point.z, 0, point.z - high.z)
            return dx * dx + dy * dy + dz * dz
        }

        mutating func formUnion(_ other: Box) {
            low = EarthPoint(x: min(low.x, other.low.x), y: min(low.y, other.low.y), z: min(low.z, other.low.z))
            high = EarthPoint(x: max(high.x, other.high.x), y: max(high.y, other.high.y), z: max(high.z, other.high.z))
            alongLow = min(alongLow, other.alongLow)
            alongHigh = max(alongHigh, other.alongHigh)
        }
    }

    /// Where a position meets one piece of the course.
    struct Match: Sendable {
        var piece: Int
        /// Metres along the course of the nearest point.
        var along: Double
        /// Metres from the position to that point.
        var offset: Double
        /// The offset, positive where the position lies left of the way.
        var side: Double
        /// Metres the position lies past the nearest point along the piece: beyond its end (positive),
        /// before its start or outside the window (negative), 0 where it is abreast of it.
        var beyond: Double
    }

    /// How many children a node of the tree has.
    static let fanOut = 8
    /// The longest piece: its chord strays at most 8 cm below the ground.
    static let longestPiece = 2_000.0
    /// The most pieces long segments are cut into, beyond one per segment.
    static let maximumExtraPieces = 2_000_000

    let pieces: [Piece]
    /// levels[0] boxes the pieces 8 at a time, levels[k] the boxes of levels[k - 1]; the last has at most 8.
    let levels: [[Box]]
    /// Metres along the course where each stage starts.
    public let stageStarts: [Double]
    /// Metres along each stage.
    public let stageLengths: [Double]
    /// Metres in a straight line from each stage's end to the next one's start.
    let stageGaps: [Double]
    /// Metres along the whole course.
    public let length: Double

    /// Lays out `route`'s stages end to end.
    ///
    /// Segments longer than 2 km are cut along their geodesic, at most 2 million extra pieces in all
    /// (longer pieces on a route so long that more would be needed).
    /// - Throws: `RouteError` if the route has no stage.
    public init(route: Route) throws(RouteError) {
        guard !route.stages.isEmpty else { throw RouteError("the route has no stage to follow") }
        let measured = route.stages.map(MeasuredStage.init)
        let total = measured.reduce(0) { $0 + $1.length }
        let pieceLength = max(Self.longestPiece, total / Double(Self.maximumExtraPieces))
        var pieces: [Piece] = []
        pieces.reserveCapacity(measured.reduce(0) { $0 + $1.stage.coordinates.count })
        var starts: [Double] = []
        var before = 0.0
        for (stageIndex, stage) in measured.enumerated() {
            starts.append(before)
            let coordinates = stage.stage.coordinates
            let distances = stage.cumulativeDistances
            guard var previous = coordinates.first.map(EarthPoint.init) else { continue }
            for index in coordinates.indices.dropFirst() {
                let next = EarthPoint(coordinates[index])
                let segmentStart = before + distances[index - 1]
                let segmentLength = distances[index] - distances[index - 1]
                defer { previous = next }
                guard segmentLength > 0 else { continue }
                let cuts = segmentLength > pieceLength ? Int((segmentLength / pieceLength).rounded(.up)) : 1
                if cuts == 1 {
                    pieces.append(Self.piece(from: previous, to: next, along: segmentStart, length: segmentLength, stage: stageIndex))
                    continue
                }
                // Points along the segment's own geodesic, so the pieces follow the way the distances measure.
                let azimuth = Geodesic.inverse(from: coordinates[index - 1], to: coordinates[index]).initialAzimuth
                let step = segmentLength / Double(cuts)
                var from = previous
                for cut in 1...cuts {
                    let to =
                        cut == cuts
                        ? next : EarthPoint(Geodesic.direct(from: coordinates[index - 1], azimuth: azimuth, distance: step * Double(cut)))
                    pieces.append(Self.piece(from: from, to: to, along: segmentStart + step * Double(cut - 1), length: step, stage: stageIndex))
                    from = to
                }
            }
            before += stage.length
        }
        self.pieces = pieces
        stageStarts = starts
        stageLengths = measured.map(\.length)
        // The way between one stage's end and the next one's start, straight.
        stageGaps = zip(measured, measured.dropFirst()).map { before, after in
            guard let end = before.stage.coordinates.last, let start = after.stage.coordinates.first else { return 0 }
            return EarthPoint(end).distance(to: EarthPoint(start))
        }
        length = before
        levels = Self.tree(over: pieces)
    }

    private static func piece(from start: EarthPoint, to end: EarthPoint, along: Double, length: Double, stage: Int) -> Piece {
        let direction = end - start
        let squared = direction.dot(direction)
        return Piece(
            start: start, direction: direction, inverseSquaredChord: squared > 0 ? 1 / squared : 0, along: along, length: length,
            stage: Int32(stage))
    }

    private static func tree(over pieces: [Piece]) -> [[Box]] {
        var levels: [[Box]] = []
        var level: [Box] = []
        level.reserveCapacity(pieces.count / fanOut + 1)
        var first = 0
        while first < pieces.count {
            let last = min(first + fanOut, pieces.count)
            var box = bounds(of: pieces[first])
            for index in (first + 1)..<last { box.formUnion(bounds(of: pieces[index])) }
            level.append(box)
            first = last
        }
        levels.append(level)
        while level.count > fanOut {
            var upper: [Box] = []
            upper.reserveCapacity(level.count / fanOut + 1)
            var first = 0
            while first < level.count {
                let last = min(first + fanOut, level.count)
                var box = level[first]
                for index in (first + 1)..<last { box.formUnion(level[index]) }
                upper.append(box)
                first = last
            }
            levels.append(upper)
            level = upper
        }
        return levels
    }

    private static func bounds(of piece: Piece) -> Box {
        let end = piece.start + piece.direction
        return Box(
            low: EarthPoint(x: min(piece.start.x, end.x), y: min(piece.start.y, end.y), z: min(piece.start.z, end.z)),
            high: EarthPoint(x: max(piece.start.x, end.x), y: max(piece.start.y, end.y), z: max(piece.start.z, end.z)),
            alongLow: piece.along, alongHigh: piece.along + piece.length)
    }
}

extension RouteCourse {
    /// The point `metres` along the course, clamped to it.
    public func coordinate(atDistance metres: Double) -> Coordinate {
        point(atDistance: metres).coordinate
    }

    /// Metres in a straight line between the stages crossed going from `from` to `to` metres along
    /// (none for a one-stage course): a rider may be carried over them.
    func gaps(from: Double, to: Double) -> Double {
        guard !stageGaps.isEmpty, to > from else { return 0 }
        var total = 0.0
        for (index, gap) in stageGaps.enumerated() where stageStarts[index + 1] > from && stageStarts[index + 1] <= to { total += gap }
        return total
    }

    /// The 1-based stage `metres` along the course falls in (a stage's end belongs to it).
    public func stage(atDistance metres: Double) -> Int {
        guard !pieces.isEmpty else { return 1 }
        return Int(pieces[pieceIndex(atDistance: metres)].stage) + 1
    }

    func point(atDistance metres: Double) -> EarthPoint {
        guard !pieces.isEmpty else { return EarthPoint(x: 0, y: 0, z: 0) }
        let piece = pieces[pieceIndex(atDistance: metres)]
        let fraction = piece.length > 0 ? min(max((metres - piece.along) / piece.length, 0), 1) : 0
        return piece.start + fraction * piece.direction
    }

    /// `pieceIndex(atDistance:)`, looking first at `hint` and the pieces either side of it: a rider
    /// is nearly always on the piece of the last fix or the next.
    func pieceIndex(atDistance metres: Double, hint: Int) -> Int {
        for index in max(hint - 1, 0)...min(hint + 2, pieces.count - 1) {
            let piece = pieces[index]
            guard piece.along <= metres, metres < piece.along + piece.length else { continue }
            // Where pieces meet (a stage's end and the next's start), the search decides.
            if index > 0, pieces[index].along == metres { break }
            return index
        }
        return pieceIndex(atDistance: metres)
    }

    /// The point `metres` along the course on piece `index` (which must hold it), and its stage, 1-based.
    func place(atDistance metres: Double, piece index: Int) -> (coordinate: Coordinate, stage: Int) {
        let piece = pieces[index]
        let fraction = piece.length > 0 ? min(max((metres - piece.along) / piece.length, 0), 1) : 0
        return ((piece.start + fraction * piece.direction).coordinate, Int(piece.stage) + 1)
    }

    /// The last piece starting at or before `metres` (the first piece for anything before the start).
    func pieceIndex(atDistance metres: Double) -> Int {
        var low = 0
        var high = pieces.count  // pieces[high] starts after metres, or is past the end
        while high - low > 1 {
            let middle = low + (high - low) / 2
            if pieces[middle].along <= metres { low = middle } else { high = middle }
        }
        // A stage's end belongs to its stage, not to the next one starting at the same distance.
        if low > 0, pieces[low].along == metres, pieces[low - 1].stage != pieces[low].stage { return low - 1 }
        return low
    }

    /// Where `point` meets piece `index`, its nearest point kept within `window` of the course.
    func match(_ point: EarthPoint, piece index: Int, window: ClosedRange<Double>) -> Match {
        let piece = pieces[index]
        let relative = point - piece.start
        let abreast = relative.dot(piece.direction) * piece.inverseSquaredChord
        var fraction = min(max(abreast, 0), 1)
        if piece.length > 0 {
            let low = (window.lowerBound - piece.along) / piece.length
            let high = (window.upperBound - piece.along) / piece.length
            fraction = min(max(fraction, low), high)
            fraction = min(max(fraction, 0), 1)
        }
        let nearest = piece.start + fraction * piece.direction
        let away = point - nearest
        let offset = away.dot(away).squareRoot()
        // Left of the way is where direction × away points up, away from the Earth's centre.
        let side = piece.direction.cross(away).dot(point) >= 0 ? offset : -offset
        let beyond = (abreast - fraction) * (piece.inverseSquaredChord > 0 ? 1 / piece.inverseSquaredChord.squareRoot() : 0)
        // Across the way: the offset without what lies beyond the end.
        let across = (max(offset * offset - beyond * beyond, 0)).squareRoot()
        return Match(piece: index, along: piece.along + fraction * piece.length, offset: offset, side: side >= 0 ? across : -across, beyond: beyond)
    }
}

