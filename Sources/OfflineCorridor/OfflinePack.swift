#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
public import RouteModel

/// What a map app needs to ride a route offline: the corridor within a distance of the route
/// (every stage), and at each zoom the map tiles that corridor touches, against the tiles of the
/// bounding box the seed app downloads.
///
/// The corridor is worked out on the Web Mercator plane in tiles of the finest zoom. The route is
/// cut into pieces short enough, and narrow enough in latitude, that the plane's scale barely
/// changes along each. Each piece is buffered by the distance times the largest scale the plane
/// has over it (north-south on the ellipsoid: a / (M cos φ)), so the corridor holds every point
/// within the distance of the route, measured on the ellipsoid, and reaches less than 1% beyond.
/// GEOS joins the buffers. The tiles of the finest zoom are those the corridor touches, and each
/// zoom out holds the parents of the one below it.
public struct OfflinePack: Sendable {
    /// What the pack covers.
    public typealias Options = CorridorOptions

    /// The tiles for one map zoom.
    public struct Level: Sendable {
        public let zoom: Int
        public let tiles: TileRows
        /// The tiles of the route's bounding box grown by the buffer, as the seed app downloads.
        public let boxCount: Int
        public var tileZoom: Int { tiles.zoom }
    }

    public let options: Options
    /// The corridor as GeoJSON wants it: polygons, each its rings (the shell counter-clockwise,
    /// holes clockwise), each ring closed, split at the antimeridian.
    public let corridor: [[[Coordinate]]]
    /// Map zoom by map zoom, outermost first.
    public let levels: [Level]
    /// The bounding box grown by the buffer: west, south, east, north (east may be past 180 for a
    /// route across the antimeridian).
    public let box: (west: Double, south: Double, east: Double, north: Double)

    /// How many tiles in all.
    public var count: Int { levels.reduce(0) { $0 + $1.tiles.count } }
    public var boxCount: Int { levels.reduce(0) { $0 + $1.boxCount } }

    /// Quadrant segments of GEOS's arcs; the radius is grown so the chords stay outside the circle.
    static let quadrantSegments: Int32 = 16
    /// Points dropped in simplifying stay within this many finest tiles of the line kept.
    static let tolerance = 1.0 / 64
    /// A piece of the route is at most this long, in metres.
    static let pieceLength = 50_000.0
    /// Segments longer than this are followed along their geodesic (which a straight line on the
    /// plane would leave by metres over tens of kilometres) in steps this long.
    static let chordLength = 5_000.0
    /// The most points segments may be cut into along their geodesics, in all: 10 million km of them.
    static let maximumChordPoints = 2_000_000
    /// Along a piece the plane's scale changes by at most this factor: with the ellipsoid's two scales (0.34% apart at most), the simplifying and the chords of arcs, the corridor reaches less than 1% beyond the buffer.
    static let scaleSpread = 1.002

    /// Works out the pack, refusing before the work one that could hold more than
    /// `options.maximumTiles` tiles.
    /// - Throws: `RouteError` naming the option to change, or what GEOS could not do.
    public init(route: Route, options: Options) throws(RouteError) {
        guard Options.bufferRange.contains(options.buffer) else {
            throw RouteError("the offline buffer must be 1 to 100000 metres, not \(options.buffer)")
        }
        guard Options.zoomRange.contains(options.zooms.lowerBound), Options.zoomRange.contains(options.zooms.upperBound) else {
            throw RouteError("offline zooms must be within 0-22, not \(options.zooms.lowerBound)-\(options.zooms.upperBound)")
        }
        guard options.tileSize == 256 || options.tileSize == 512 else {
            throw RouteError("the tile size must be 256 or 512, not \(options.tileSize)")
        }
        self.options = options
        let finest = options.tileZoom(forMapZoom: options.zooms.upperBound)
        let plane = MercatorPlane(zoom: finest)
        let pieces = try Self.pieces(of: route, on: plane, buffer: options.buffer)
        do {
            let context = try GEOSContext()
            var lines: [(line: Geometry, radius: Double)] = []
            // At most how many tiles each zoom's corridor can touch, counted before any buffer is made.
            var bounds = [Double](repeating: 0, count: options.zooms.count)
            for piece in pieces {
                let line = try context.lineString(piece.points)
                var simplified = try context.simplify(line, tolerance: Self.tolerance)
                if try context.points(ofLine: simplified).count < 2 { simplified = line }  // one point twice simplifies to nothing
                let radius = (piece.radius + Self.tolerance) / cos(Double.pi / Double(4 * Self.quadrantSegments))
                lines.append((simplified, radius))
                // Simplified by the radius, the line's buffer of twice the radius holds this piece's.
                var coarse = try context.points(ofLine: try context.simplify(line, tolerance: radius))
                if coarse.count < 2 { coarse = [piece.points[0], piece.points[0]] }
                for level in bounds.indices {
                    bounds[level] += Self.tileBound(coarse, radius: 2 * radius, scale: pow(0.5, Double(level)))
                }
            }
            let total = bounds.enumerated().reduce(0.0) { sum, level in
                sum + min(level.element, pow(4, Double(finest - level.offset)))
            }
            guard total <= Double(options.maximumTiles) else {
                throw RouteError(
                    "the offline pack could hold up to \(Int(min(total, 1e15))) tiles (zooms \(options.zooms.lowerBound)-\(options.zooms.upperBound), "
                        + "\(Int(options.buffer)) m), more than the \(options.maximumTiles) allowed: ask for fewer zooms or a smaller buffer")
            }
            var buffers: [Geometry] = []
            for (line, radius) in lines {
                buffers.append(try context.buffer(line, width: radius, quadrantSegments: Self.quadrantSegments))
            }
            let union = try context.union(buffers)
            let world = try context.clip(union, x: -1e12...1e12, y: 0...plane.size)
            let polygons = try context.polygons(of: world)
            var rows = CorridorScan.tiles(of: polygons, zoom: finest)
            let box = Self.box(of: route, buffer: options.buffer)
            var levels: [Level] = []
            for zoom in options.zooms.reversed() {
                while rows.zoom > options.tileZoom(forMapZoom: zoom) { rows = rows.parents() }
                levels.append(Level(zoom: zoom, tiles: rows, boxCount: Self.boxCount(box, zoom: rows.zoom)))
            }
            self.box = box
            self.levels = levels.reversed()
            corridor = try Self.coordinates(of: world, polygons: polygons, plane: plane, context: context)
        } catch let error as RouteError {
            throw error
        } catch {
            throw RouteError("cannot work out the offline corridor: \(error)")
        }
    }

    /// A stretch of the route on the plane, with the radius (in finest tiles) that holds the buffer all along it.
    struct Piece {
        var points: [(x: Double, y: Double)]
        var radius: Double
    }

    /// The stages cut into pieces of at most `pieceLength` metres along which the plane's scale
    /// changes by at most `scaleSpread`, longitudes unwrapped so that none jumps across the
    /// antimeridian, and segments longer than `chordLength` followed along their geodesic.
    static func pieces(of route: Route, on plane: MercatorPlane, buffer: Double) throws(RouteError) -> [Piece] {
        // Counted before any is made: a route of long jumps would otherwise ask for billions of points.
        var extra = 0
        var distances: [[Double]] = []
        for stage in route.stages {
            let steps = zip(stage.coordinates, stage.coordinates.dropFirst()).map { Geodesic.distance($0, $1) }
            for distance in steps { extra += max(0, Int(min((distance / chordLength).rounded(.up), 1e9)) - 1) }
            distances.append(steps)
            guard extra <= maximumChordPoints else {
                throw RouteError(
                    "the route's segments are too long for an offline pack: following them on the ground would take more than "
                        + "\(maximumChordPoints) points (a point every \(Int(chordLength / 1000)) km)")
            }
        }
        var pieces: [Piece] = []
        // The buffer's reach in latitude, so the scale is taken at the piece's edge nearest a pole.
        let reach = buffer / MercatorPlane.meridionalRadius(latitude: 0) * 180 / .pi
        func scale(_ latitude: Double) -> Double { MercatorPlane.scale(latitude: min(abs(latitude) + reach, MercatorPlane.scaleLimitLatitude)) }
        for (stage, steps) in zip(route.stages, distances) {
            var points: [(coordinate: Coordinate, step: Double)] = []
            for (index, coordinate) in stage.coordinates.enumerated() {
                guard index > 0 else {
                    points.append((coordinate, 0))
                    continue
                }
                let (previous, distance) = (stage.coordinates[index - 1], steps[index - 1])
                if distance > chordLength {
                    let azimuth = Geodesic.inverse(from: previous, to: coordinate).initialAzimuth
                    let cuts = Int(min((distance / chordLength).rounded(.up), 1e6))
                    for cut in 1..<cuts {
                        let between = Geodesic.direct(from: previous, azimuth: azimuth, distance: distance * Double(cut) / Double(cuts))
                        points.append((between, distance / Double(cuts)))
                    }
                    points.append((coordinate, distance / Double(cuts)))
                } else {
                    points.append((coordinate, distance))
                }
            }
            let longitudes = unwrappedLongitudes(points.map(\.coordinate))
            var current: [(x: Double, y: Double)] = []
            var (length, lowest, highest) = (0.0, Double.infinity, 0.0)
            for (index, (coordinate, step)) in points.enumerated() {
                let here = scale(coordinate.latitude)
                let point = plane.point(latitude: coordinate.latitude, longitude: longitudes[index])
                if current.count > 1, length + step > pieceLength || max(highest, here) > scaleSpread * min(lowest, here) {
                    pieces.append(Piece(points: current, radius: buffer * highest / plane.metresPerTile))
                    // The next piece starts where this one ended, so no gap opens between them.
                    let last = scale(points[index - 1].coordinate.latitude)
                    current = [current[current.count - 1]]
                    (length, lowest, highest) = (0, last, last)
                }
                current.append(point)
                length += step
                (lowest, highest) = (min(lowest, here), max(highest, here))
            }
            if current.count == 1 { current.append(current[0]) }
            if !current.isEmpty { pieces.append(Piece(points: current, radius: buffer * highest / plane.metresPerTile)) }
        }
        return pieces
    }

    /// The longitudes of `coordinates`, each within 180° of the one before: a line across the
    /// antimeridian goes on past ±180 instead of jumping the world's width.
    static func unwrappedLongitudes(_ coordinates: [Coordinate]) -> [Double] {
        var longitudes: [Double] = []
        longitudes.reserveCapacity(coordinates.count)
        for (index, coordinate) in coordinates.enumerated() {
            guard let last = longitudes.last else {
                longitudes.append(coordinate.longitude)
                continue
            }
            var step = coordinate.longitude - coordinates[index - 1].longitude
            if step > 180 { step -= 360 }
            if step < -180 { step += 360 }
            longitudes.append(last + step)
        }
        return longitudes
    }

    /// At most how many tiles a line buffered by `radius` touches on a plane scaled by `scale`: no more
    /// than the area of its buffer grown by a tile's diagonal (each tile touched lies within it, and
    /// tiles do not overlap), which is at most a rectangle and a disc for each segment.
    static func tileBound(_ points: [(x: Double, y: Double)], radius: Double, scale: Double) -> Double {
        let reach = radius * scale + 2.0.squareRoot()
        var bound = 0.0
        for (a, b) in zip(points, points.dropFirst()) {
            bound += 2 * reach * hypot(b.x - a.x, b.y - a.y) * scale + .pi * reach * reach
        }
        return bound
    }

    /// The route's bounding box, longitudes unwrapped, grown by `buffer` metres.
    static func box(of route: Route, buffer: Double) -> (west: Double, south: Double, east: Double, north: Double) {
        var (west, south, east, north) = (Double.infinity, Double.infinity, -Double.infinity, -Double.infinity)
        for stage in route.stages {
            for (coordinate, longitude) in zip(stage.coordinates, unwrappedLongitudes(stage.coordinates)) {
                (west, east) = (min(west, longitude), max(east, longitude))
                (south, north) = (min(south, coordinate.latitude), max(north, coordinate.latitude))
            }
        }
        let latitudeReach = buffer / MercatorPlane.meridionalRadius(latitude: 0) * 180 / .pi
        let widest = min(max(abs(south), abs(north)) + latitudeReach, 89.9)
        let longitudeReach = buffer / (WGS84.a * cos(widest * .pi / 180)) * 180 / .pi
        return (west - longitudeReach, max(-90, south - latitudeReach), east + longitudeReach, min(90, north + latitudeReach))
    }

    /// The tiles of `zoom` the box touches.
    static func boxCount(_ box: (west: Double, south: Double, east: Double, north: Double), zoom: Int) -> Int {
        let plane = MercatorPlane(zoom: zoom)
        let size = 1 << zoom
        let top = plane.point(latitude: box.north, longitude: box.west)
        let bottom = plane.point(latitude: box.south, longitude: box.east)
        let columns = min(size, Int(bottom.x.rounded(.down)) - Int(top.x.rounded(.down)) + 1)
        let rows = min(size - 1, Int(bottom.y.rounded(.down))) - max(0, Int(top.y.rounded(.down))) + 1
        return max(0, columns) * max(0, rows)
    }

    /// The corridor (whose `polygons` the caller has read already) in longitude and latitude, cut at
    /// the antimeridian and wound as RFC 7946 asks.
    static func coordinates(
        of corridor: Geometry, polygons: [[[(x: Double, y: Double)]]], plane: MercatorPlane, context: GEOSContext
    ) throws(GeometryError) -> [[[Coordinate]]] {
        let xs = polygons.flatMap { $0.first ?? [] }.map(\.x)
        guard let west = xs.min(), let east = xs.max() else { return [] }
        var result: [[[Coordinate]]] = []
        for world in Int((west / plane.size).rounded(.down))...Int((east / plane.size).rounded(.down)) {
            let offset = Double(world) * plane.size
            let part = try context.clip(corridor, x: offset...(offset + plane.size), y: 0...plane.size)
            for polygon in try context.polygons(of: part) {
                let rings = polygon.enumerated().map { index, ring in
                    var coordinates = densified(ring, step: edgeLength / plane.metresPerTile).map { plane.coordinate(x: $0.x - offset, y: $0.y) }
                    // Counter-clockwise shells and clockwise holes in longitude and latitude.
                    if (signedArea(coordinates) > 0) != (index == 0) { coordinates.reverse() }
                    return coordinates
                }
                result.append(rings)
            }
        }
        return result
    }

    /// Edges of the corridor are at most this long (in metres at the equator): a straight edge on
    /// the plane, in longitude and latitude (GeoJSON's reading) and on the ground part by less than a
    /// centimetre over it, where over tens of kilometres they part by metres.
    static let edgeLength = 500.0

    /// `ring` with points added so that no edge is longer than `step`.
    static func densified(_ ring: [(x: Double, y: Double)], step: Double) -> [(x: Double, y: Double)] {
        guard let first = ring.first else { return ring }
        var result = [first]
        for (a, b) in zip(ring, ring.dropFirst()) {
            let pieces = Int(min((hypot(b.x - a.x, b.y - a.y) / step).rounded(.up), 1e6))
            if pieces > 1 {
                for piece in 1..<pieces {
                    let t = Double(piece) / Double(pieces)
                    result.append((a.x + (b.x - a.x) * t, a.y + (b.y - a.y) * t))
                }
            }
            result.append(b)
        }
        return result
    }

    /// Twice the signed area of a closed ring in degrees: positive counter-clockwise.
    static func signedArea(_ ring: [Coordinate]) -> Double {
        zip(ring, ring.dropFirst()).reduce(0) { $0 + ($1.0.longitude * $1.1.latitude - $1.1.longitude * $1.0.latitude) }
    }
}

/// The Web Mercator plane measured in tiles of one zoom: x from the antimeridian eastwards (not
/// wrapped: a route across the antimeridian goes on past the world's width), y down from the top
/// of the world (latitude 85.05°).
struct MercatorPlane {
    let zoom: Int
    /// The world's width in tiles.
    let size: Double
    /// Ground metres per tile at the equator.
    let metresPerTile: Double

    init(zoom: Int) {
        self.zoom = zoom
        size = pow(2, Double(zoom))
        metresPerTile = 2 * .pi * WGS84.a / size
    }

    /// Latitudes past this are drawn at it: Mercator reaches the poles only at infinity.
    static let scaleLimitLatitude = 89.9

    func point(latitude: Double, longitude: Double) -> (x: Double, y: Double) {
        let clamped = max(-Self.scaleLimitLatitude, min(Self.scaleLimitLatitude, latitude)) * .pi / 180
        let x = (longitude + 180) / 360 * size
        let y = (1 - log(tan(clamped) + 1 / cos(clamped)) / .pi) / 2 * size
        return (x, y)
    }

    func coordinate(x: Double, y: Double) -> Coordinate {
        let longitude = x / size * 360 - 180
        let latitude = atan(sinh(.pi * (1 - 2 * y / size))) * 180 / .pi
        return Coordinate(latitude: latitude, longitude: longitude)
    }

    /// Web Mercator's largest scale at `latitude` against the ellipsoid: the plane's metres per
    /// ground metre north-south (a / (M cos φ)), which is at least its east-west scale (a / (N cos φ)).
    static func scale(latitude: Double) -> Double {
        WGS84.a / (meridionalRadius(latitude: latitude) * cos(latitude * .pi / 180))
    }

    /// The ellipsoid's radius of curvature along the meridian.
    static func meridionalRadius(latitude: Double) -> Double {
        let sine = sin(latitude * .pi / 180)
        return WGS84.a * (1 - WGS84.e2) / pow(1 - WGS84.e2 * sine * sine, 1.5)
    }
}
