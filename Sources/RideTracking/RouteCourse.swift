public import RouteModel
import RoutePlacement

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
        /// 1 / |direction|², 0 for a piece of no length; and |direction|.
        var inverseSquaredChord: Double
        var chord: Double
        /// Metres along the course at the start.
        var along: Double
        /// Metres along the course from start to end (the geodesic's, not the chord's).
        var length: Double
        /// 0-based.
        var stage: Int32
        /// The start's latitude and longitude, and the step in each to the end: a point along a piece
        /// read off them, without the trigonometry of turning Earth-centred metres back, strays from
        /// its chord's by millimetres on a route's usual pieces of metres to tens of metres, and by at
        /// most about 0.4 m on a 2 km piece near a pole.
        var startCoordinate: Coordinate
        var coordinateStep: (latitude: Double, longitude: Double)
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
                    pieces.append(
                        Self.piece(
                            from: (previous, coordinates[index - 1]), to: (next, coordinates[index]), along: segmentStart, length: segmentLength,
                            stage: stageIndex))
                    continue
                }
                // Points along the segment's own geodesic, so the pieces follow the way the distances measure.
                let azimuth = Geodesic.inverse(from: coordinates[index - 1], to: coordinates[index]).initialAzimuth
                let step = segmentLength / Double(cuts)
                var from = (point: previous, coordinate: coordinates[index - 1])
                for cut in 1...cuts {
                    let coordinate = cut == cuts ? coordinates[index] : Geodesic.direct(from: coordinates[index - 1], azimuth: azimuth, distance: step * Double(cut))
                    let to = (point: cut == cuts ? next : EarthPoint(coordinate), coordinate: coordinate)
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

    private static func piece(
        from start: (point: EarthPoint, coordinate: Coordinate), to end: (point: EarthPoint, coordinate: Coordinate), along: Double, length: Double,
        stage: Int
    ) -> Piece {
        let direction = end.point - start.point
        let squared = direction.dot(direction)
        // Longitude's step the short way round, across the antimeridian if need be.
        var longitudeStep = end.coordinate.longitude - start.coordinate.longitude
        if longitudeStep > 180 { longitudeStep -= 360 } else if longitudeStep < -180 { longitudeStep += 360 }
        return Piece(
            start: start.point, direction: direction, inverseSquaredChord: squared > 0 ? 1 / squared : 0, chord: squared.squareRoot(), along: along,
            length: length, stage: Int32(stage), startCoordinate: start.coordinate,
            coordinateStep: (end.coordinate.latitude - start.coordinate.latitude, longitudeStep))
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
        return point(atDistance: metres, piece: pieceIndex(atDistance: metres))
    }

    /// The point `metres` along the course, on piece `index`, which holds it.
    func point(atDistance metres: Double, piece index: Int) -> EarthPoint {
        guard pieces.indices.contains(index) else { return EarthPoint(x: 0, y: 0, z: 0) }
        let piece = pieces[index]
        let fraction = piece.length > 0 ? min(max((metres - piece.along) / piece.length, 0), 1) : 0
        return piece.start + fraction * piece.direction
    }

    /// `pieceIndex(atDistance:)`, looking first at `hint` and the pieces either side of it: a rider
    /// is nearly always on the piece of the last fix or near it.
    func pieceIndex(atDistance metres: Double, hint: Int) -> Int {
        guard !pieces.isEmpty else { return 0 }
        var index = min(max(hint, 0), pieces.count - 1)
        // A few steps either way from the hint; further, the search.
        for _ in 0..<16 {
            let piece = pieces[index]
            if metres < piece.along {
                guard index > 0 else { break }
                index -= 1
            } else if metres >= piece.along + piece.length {
                guard index < pieces.count - 1 else { break }
                index += 1
            } else {
                // Where pieces meet (a stage's end and the next's start), the search decides.
                if index > 0, piece.along == metres { break }
                return index
            }
        }
        return pieceIndex(atDistance: metres)
    }

    /// The point `metres` along the course on piece `index` (which must hold it), and its stage, 1-based.
    func place(atDistance metres: Double, piece index: Int) -> (coordinate: Coordinate, stage: Int) {
        let piece = pieces[index]
        let fraction = piece.length > 0 ? min(max((metres - piece.along) / piece.length, 0), 1) : 0
        var longitude = piece.startCoordinate.longitude + fraction * piece.coordinateStep.longitude
        if longitude > 180 { longitude -= 360 } else if longitude < -180 { longitude += 360 }
        let latitude = piece.startCoordinate.latitude + fraction * piece.coordinateStep.latitude
        return (Coordinate(latitude: latitude, longitude: longitude), Int(piece.stage) + 1)
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

    /// Where `point` meets piece `index`, if within `squaredRadius` (metres, squared) of it: worked
    /// out once per piece near every fix, so the test comes before any root is taken.
    func nearestPoint(of point: EarthPoint, onPiece index: Int, within squaredRadius: Double) -> Match? {
        let piece = pieces[index]
        let relative = point - piece.start
        let abreast = relative.dot(piece.direction) * piece.inverseSquaredChord
        let fraction = min(max(abreast, 0), 1)
        let away = relative - fraction * piece.direction
        let squared = away.dot(away)
        guard squared <= squaredRadius else { return nil }
        let offset = squared.squareRoot()
        let beyond = (abreast - fraction) * piece.chord
        // Across the way: the offset without what lies beyond the end; left of the way is where
        // direction × away points up, away from the Earth's centre.
        let across = max(squared - beyond * beyond, 0).squareRoot()
        let side = piece.direction.cross(away).dot(point) >= 0 ? across : -across
        return Match(piece: index, along: piece.along + fraction * piece.length, offset: offset, side: side, beyond: beyond)
    }
}

