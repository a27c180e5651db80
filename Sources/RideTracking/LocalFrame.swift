/// East and north at a place, in Earth-centred metres: for telling a way's direction on the ground.
struct LocalFrame {
    var east: EarthPoint
    var north: EarthPoint

    init(_ point: EarthPoint) {
        let length = point.dot(point).squareRoot()
        let up = length > 0 ? (1 / length) * point : EarthPoint(x: 0, y: 0, z: 1)
        let horizontal = (up.x * up.x + up.y * up.y).squareRoot()
        // At a pole any east will do.
        east = horizontal > 1e-12 ? EarthPoint(x: -up.y / horizontal, y: up.x / horizontal, z: 0) : EarthPoint(x: 0, y: 1, z: 0)
        north = up.cross(east)
    }

    /// The unit vectors along `piece` and to its left, east and north.
    func way(of piece: RouteCourse.Piece) -> RideHypothesis.Way {
        let e = piece.direction.dot(east)
        let n = piece.direction.dot(north)
        let length = (e * e + n * n).squareRoot()
        guard length > 0 else { return RideHypothesis.Way(te: 1, tn: 0) }
        return RideHypothesis.Way(te: e / length, tn: n / length)
    }

    /// The unit vector, east and north, to the left of `piece`'s way.
    func leftNormal(of piece: RouteCourse.Piece) -> (east: Double, north: Double) {
        let way = way(of: piece)
        return (way.ne, way.nn)
    }
}
