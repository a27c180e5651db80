import CGEOS
import RouteModel

/// Why GEOS could not do what it was asked, in its words.
struct GeometryError: Error, CustomStringConvertible {
    let message: String
    var description: String { message }
}

/// A GEOS context (its reentrant API: one per thread of work), finished when released. It keeps
/// GEOS's last error message, so a failure says what GEOS said.
final class GEOSContext {
    let handle: OpaquePointer
    /// GEOS's functions, from the library opened on first use.
    let geos: MarkerpaintGEOS
    fileprivate var lastError = ""

    init() throws(GeometryError) {
        var why: UnsafePointer<CChar>? = nil
        guard let functions = markerpaint_geos(&why) else {
            throw GeometryError(message: why.map { String(cString: $0) } ?? "GEOS could not be opened")
        }
        geos = functions.pointee
        guard let handle = geos.start() else { throw GeometryError(message: "GEOS could not start") }
        self.handle = handle
        geos.setErrorMessageHandler(
            handle,
            { message, context in
                guard let message, let context else { return }
                Unmanaged<GEOSContext>.fromOpaque(context).takeUnretainedValue().lastError = String(cString: message)
            }, Unmanaged.passUnretained(self).toOpaque())
    }

    deinit { geos.finish(handle) }

    /// The error for a call that returned nothing.
    fileprivate func failure(_ what: String) -> GeometryError {
        GeometryError(message: "GEOS could not \(what)" + (lastError.isEmpty ? "" : ": \(lastError)"))
    }

    /// A line through `points` (at least two).
    func lineString(_ points: [(x: Double, y: Double)]) throws(GeometryError) -> Geometry {
        let flat = points.flatMap { [$0.x, $0.y] }
        let sequence = flat.withUnsafeBufferPointer { geos.coordSeqCopyFromBuffer(handle, $0.baseAddress, UInt32(points.count), 0, 0) }
        guard let sequence else { throw failure("make a line of \(points.count) points") }
        guard let line = geos.createLineString(handle, sequence) else { throw failure("make a line") }
        return Geometry(line, in: self)
    }

    /// Everything within `width` of `geometry`, arcs made of `quadrantSegments` chords a quarter
    /// circle, with round ends and joins.
    func buffer(_ geometry: Geometry, width: Double, quadrantSegments: Int32) throws(GeometryError) -> Geometry {
        guard
            let buffered = geos.bufferWithStyle(
                handle, geometry.pointer, width, quadrantSegments, Int32(GEOSBUF_CAP_ROUND.rawValue), Int32(GEOSBUF_JOIN_ROUND.rawValue), 5)
        else { throw failure("buffer a line") }
        return Geometry(buffered, in: self)
    }

    /// `geometry` with points closer than `tolerance` to the line through their neighbours dropped
    /// (Douglas-Peucker); every point of the original stays within `tolerance` of the result.
    func simplify(_ geometry: Geometry, tolerance: Double) throws(GeometryError) -> Geometry {
        guard let simplified = geos.simplify(handle, geometry.pointer, tolerance) else { throw failure("simplify a line") }
        return Geometry(simplified, in: self)
    }

    /// The union of `geometries`, which it takes over.
    func union(_ geometries: [Geometry]) throws(GeometryError) -> Geometry {
        var pointers: [OpaquePointer?] = geometries.map { $0.release() }
        let collection = pointers.withUnsafeMutableBufferPointer {
            geos.createCollection(handle, Int32(GEOS_GEOMETRYCOLLECTION.rawValue), $0.baseAddress, UInt32($0.count))
        }
        guard let collection else {
            for pointer in pointers { geos.destroy(handle, pointer) }
            throw failure("collect \(geometries.count) shapes")
        }
        let whole = Geometry(collection, in: self)
        guard let union = geos.unaryUnion(handle, whole.pointer) else { throw failure("join \(geometries.count) shapes") }
        return Geometry(union, in: self)
    }

    /// The part of `geometry` inside the rectangle.
    func clip(_ geometry: Geometry, x: ClosedRange<Double>, y: ClosedRange<Double>) throws(GeometryError) -> Geometry {
        guard let clipped = geos.clipByRect(handle, geometry.pointer, x.lowerBound, y.lowerBound, x.upperBound, y.upperBound) else {
            throw failure("clip a shape")
        }
        return Geometry(clipped, in: self)
    }

    /// The polygons of a polygonal geometry, each as its rings (the shell first), each ring as its
    /// points with the first repeated last; lines and points in it are left out.
    func polygons(of geometry: Geometry) throws(GeometryError) -> [[[(x: Double, y: Double)]]] {
        var result: [[[(x: Double, y: Double)]]] = []
        guard let pointer = geometry.pointer else { return result }
        try collectPolygons(pointer, into: &result)
        return result
    }

    private func collectPolygons(_ pointer: OpaquePointer, into result: inout [[[(x: Double, y: Double)]]]) throws(GeometryError) {
        let type = geos.geomTypeId(handle, pointer)
        if type == Int32(GEOS_POLYGON.rawValue) {
            guard let shell = geos.getExteriorRing(handle, pointer) else { throw failure("read a polygon's shell") }
            var rings = [try points(of: shell)]
            let holes = geos.getNumInteriorRings(handle, pointer)
            guard holes >= 0 else { throw failure("count a polygon's holes") }
            for index in 0..<holes {
                guard let hole = geos.getInteriorRingN(handle, pointer, index) else { throw failure("read a polygon's hole") }
                rings.append(try points(of: hole))
            }
            if rings[0].count >= 4 { result.append(rings) }
        } else if type == Int32(GEOS_MULTIPOLYGON.rawValue) || type == Int32(GEOS_GEOMETRYCOLLECTION.rawValue) {
            let count = geos.getNumGeometries(handle, pointer)
            guard count >= 0 else { throw failure("count a collection's parts") }
            for index in 0..<count {
                guard let part = geos.getGeometryN(handle, pointer, index) else { throw failure("read a collection's part") }
                try collectPolygons(part, into: &result)
            }
        }
    }

    /// The points of a line (none for an empty one).
    func points(ofLine line: Geometry) throws(GeometryError) -> [(x: Double, y: Double)] {
        guard let pointer = line.pointer, geos.geomTypeId(handle, pointer) == Int32(GEOS_LINESTRING.rawValue) else { return [] }
        return try points(of: pointer)
    }

    private func points(of ring: OpaquePointer) throws(GeometryError) -> [(x: Double, y: Double)] {
        guard let sequence = geos.getCoordSeq(handle, ring) else { throw failure("read a ring") }
        var size: UInt32 = 0
        guard geos.coordSeqGetSize(handle, sequence, &size) != 0 else { throw failure("measure a ring") }
        var flat = [Double](repeating: 0, count: 2 * Int(size))
        let copied = flat.withUnsafeMutableBufferPointer { geos.coordSeqCopyToBuffer(handle, sequence, $0.baseAddress, 0, 0) }
        guard copied != 0 else { throw failure("copy a ring") }
        return (0..<Int(size)).map { (flat[2 * $0], flat[2 * $0 + 1]) }
    }
}

/// A GEOS geometry this side owns, destroyed with it unless handed over to GEOS.
final class Geometry {
    private let context: GEOSContext
    private var owned: OpaquePointer?

    fileprivate init(_ pointer: OpaquePointer, in context: GEOSContext) {
        self.context = context
        owned = pointer
    }

    /// The geometry; valid while this object owns it.
    fileprivate var pointer: OpaquePointer? { owned }

    /// Gives the geometry up to GEOS (a collection takes its members).
    fileprivate func release() -> OpaquePointer? {
        defer { owned = nil }
        return owned
    }

    deinit {
        if let owned { context.geos.destroy(context.handle, owned) }
    }
}
