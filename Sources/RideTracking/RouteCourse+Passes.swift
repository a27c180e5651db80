import RouteModel

extension RouteCourse {
    /// Windows up to this many metres long are read piece by piece rather than through the tree.
    static let scannedWindow = 1_000.0
    /// The most passes one search keeps: beyond this a place is a tangle no fix could tell apart.
    static let maximumPasses = 8
    /// The most pieces one search looks at, so a course that scribbles round one spot costs a fix
    /// no more than this (the earliest along the course are kept).
    static let maximumPiecesSearched = 4_096

    /// Every piece of the course whose nearest point to `point` is within `radius` metres and lies
    /// in `window`, met in order along the course, at most `maximumPiecesSearched` (the earliest).
    ///
    /// A short window (a rider's reach between two fixes) is read piece by piece from `hint`; a long
    /// one through the tree of boxes.
    func pieces(near point: EarthPoint, within radius: Double, window: ClosedRange<Double>, hint: Int = 0, into found: inout [Match]) {
        found.removeAll(keepingCapacity: true)
        guard !pieces.isEmpty, window.upperBound >= 0, window.lowerBound <= length else { return }
        let squaredRadius = radius * radius
        if window.upperBound - window.lowerBound <= Self.scannedWindow {
            var index = pieceIndex(atDistance: window.lowerBound, hint: min(max(hint, 0), pieces.count - 1))
            while index < pieces.count && pieces[index].along <= window.upperBound && found.count < Self.maximumPiecesSearched {
                defer { index += 1 }
                guard let match = nearestPoint(of: point, onPiece: index, within: squaredRadius) else { continue }
                if window.contains(match.along) && isNearestPoint(match, of: point) { found.append(match) }
            }
            return
        }
        withUnsafeTemporaryAllocation(of: (level: Int32, index: Int32).self, capacity: levels.count * Self.fanOut + 1) { stack in
            var count = 0
            let top = levels.count - 1
            for index in levels[top].indices.reversed() {
                stack[count] = (Int32(top), Int32(index))
                count += 1
            }
            // Depth first, earliest child first: pieces come in order along the course.
            while count > 0 && found.count < Self.maximumPiecesSearched {
                count -= 1
                let (level, index) = (Int(stack[count].level), Int(stack[count].index))
                let box = levels[level][index]
                guard box.alongHigh >= window.lowerBound, box.alongLow <= window.upperBound, box.squaredDistance(to: point) <= squaredRadius
                else { continue }
                let first = index * Self.fanOut
                if level == 0 {
                    for piece in first..<min(first + Self.fanOut, pieces.count) {
                        let candidate = pieces[piece]
                        guard candidate.along + candidate.length >= window.lowerBound, candidate.along <= window.upperBound else { continue }
                        guard let match = nearestPoint(of: point, onPiece: piece, within: squaredRadius) else { continue }
                        if window.contains(match.along) && isNearestPoint(match, of: point) { found.append(match) }
                    }
                } else {
                    let children = levels[level - 1]
                    for child in (first..<min(first + Self.fanOut, children.count)).reversed() {
                        stack[count] = (Int32(level - 1), Int32(child))
                        count += 1
                    }
                }
            }
        }
    }

    /// Whether a piece's nearest point to `point` is a nearest point of the course: inside the
    /// piece, or at an end that the next piece does not carry on from (a corner's outer side, a
    /// stage's start or end). A point past a piece's end on a straight way belongs to the next piece.
    func isNearestPoint(_ match: Match, of point: EarthPoint) -> Bool {
        guard abs(match.beyond) > 0.01 else { return true }
        let neighbour = match.beyond > 0 ? match.piece + 1 : match.piece - 1
        guard pieces.indices.contains(neighbour), pieces[neighbour].stage == pieces[match.piece].stage else { return true }
        let next = beyond(of: point, onPiece: neighbour)
        // The neighbour carries on if the point lies abreast of it, or past its far end.
        return match.beyond > 0 ? next <= -0.01 : next >= 0.01
    }

    /// `nearestPoint(of:onPiece:within:)`'s `beyond` alone: no roots, for the neighbour of every
    /// corner near a fix.
    private func beyond(of point: EarthPoint, onPiece index: Int) -> Double {
        let piece = pieces[index]
        let abreast = (point - piece.start).dot(piece.direction) * piece.inverseSquaredChord
        return (abreast - min(max(abreast, 0), 1)) * piece.chord
    }

    /// The passes among `nearby` (pieces in order along the course, as `pieces(near:)` finds them):
    /// the nearest point of each, at most `maximumPasses` (the nearest kept).
    ///
    /// A pass is a run of consecutive pieces. Where the way turns back within it (a hairpin, a
    /// U-turn), the offset rises and falls again: a rise and fall of `separation` metres or more
    /// starts another pass, so each leg is a pass of its own.
    func passes(among nearby: [Match], separation: Double, into found: inout [Match]) {
        found.removeAll(keepingCapacity: true)
        var builder = PassBuilder(separation: separation)
        var previous: Match? = nil
        for match in nearby {
            let follows = previous.map { $0.piece == match.piece - 1 && pieces[$0.piece].stage == pieces[match.piece].stage } ?? false
            builder.add(match, follows: follows, into: &found)
            previous = match
        }
        builder.finish(into: &found)
    }
}

/// Splits pieces met in order along the course into passes: the deepest point of each valley of
/// offset, a valley ending where the offset has risen and fallen again by the separation.
private struct PassBuilder {
    let separation: Double
    var valley: RouteCourse.Match?
    /// The largest offset since the valley's deepest point.
    var ridge = 0.0

    init(separation: Double) {
        self.separation = separation
    }

    mutating func add(_ match: RouteCourse.Match, follows: Bool, into found: inout [RouteCourse.Match]) {
        guard follows, let current = valley else {
            finish(into: &found)
            valley = match
            ridge = match.offset
            return
        }
        if ridge - current.offset >= separation && ridge - match.offset >= separation {
            finish(into: &found)
            valley = match
            ridge = match.offset
        } else if match.offset < current.offset {
            valley = match
            ridge = match.offset
        } else {
            ridge = max(ridge, match.offset)
        }
    }

    /// Ends the pass under way, keeping it if it is among the nearest.
    mutating func finish(into found: inout [RouteCourse.Match]) {
        guard let pass = valley else { return }
        valley = nil
        if found.count < RouteCourse.maximumPasses {
            found.append(pass)
        } else if let worst = found.indices.max(by: { found[$0].offset < found[$1].offset }), found[worst].offset > pass.offset {
            found.remove(at: worst)
            found.append(pass)
        }
    }
}
