import CGEOS

/// Why GEOS could not do what it was asked, in its words.
struct GeometryError: Error, CustomStringConvertible {
    let message: String
    var description: String { message }
}

/// A GEOS context (its reentrant API: one per thread of work), finished when released. It keeps
/// GEOS's last error message, so a failure says what GEOS said.
final class GEOSContext {
    let handle: OpaquePointer
    fileprivate var lastError = ""

    init() throws(GeometryError) {
        guard let handle = GEOS_init_r() else { throw GeometryError(message: "GEOS could not start") }
        self.handle = handle
        GEOSContext_setErrorMessageHandler_r(
            handle,
            { message, context in
                guard let message, let context else { return }
                Unmanaged<GEOSContext>.fromOpaque(context).takeUnretainedValue().lastError = String(cString: message)
            }, Unmanaged.passUnretained(self).toOpaque())
    }

    deinit { GEOS_finish_r(handle) }

    /// The error for a call that returned nothing.
    fileprivate func failure(_ what: String) -> GeometryError {
        GeometryError(message: "GEOS could not \(what)" + (lastError.isEmpty ? "" : ": \(lastError)"))
    }

    /// A line through `points` (at least two).
    func lineString(_ points: [(x: Double, y: Double)]) throws(GeometryError) -> Geometry {
        let flat = points.flatMap { [$0.x, $0.y] }
        let sequence = flat.withUnsafeBufferPointer { GEOSCoordSeq_copyFromBuffer_r(handle, $0.baseAddress, UInt32(points.count), 0, 0) }
        guard let sequence else { throw failure("make a line of \(points.count) points") }
        guard let line = GEOSGeom_createLineString_r(handle, sequence) else { throw failure("make a line") }
        return Geometry(line, in: self)
    }

    /// Everything within `width` of `geometry`, arcs made of `quadrantSegments` chords a quarter
    /// circle, with round ends and joins.
    func buffer(_ geometry: Geometry, width: Double, quadrantSegments: Int32) throws(GeometryError) -> Geometry {
        guard
            let buffered = GEOSBufferWithStyle_r(
                handle, geometry.pointer, width, quadrantSegments, Int32(GEOSBUF_CAP_ROUND.rawValue), Int32(GEOSBUF_JOIN_ROUND.rawValue), 5)
        else { throw failure("buffer a line") }
        return Geometry(buffered, in: self)
    }

    /// `geometry` with points closer than `tolerance` to the line through their neighbours dropped
    /// (Douglas-Peucker); every point of the original stays within `tolerance` of the result.
    func simplify(_ geometry: Geometry, tolerance: Double) throws(GeometryError) -> Geometry {
        guard let simplified = GEOSSimplify_r(handle, geometry.pointer, tolerance) else { throw failure("simplify a line") }
        return Geometry(simplified, in: self)
    }

    /// The union of `geometries`, which it takes over.
    func union(_ geometries: [Geometry]) throws(GeometryError) -> Geometry {
        var pointers: [OpaquePointer?] = geometries.map { $0.release() }
        let collection = pointers.withUnsafeMutableBufferPointer {
            GEOSGeom_createCollection_r(handle, Int32(GEOS_GEOMETRYCOLLECTION.rawValue), $0.baseAddress, UInt32($0.count))
        }
        guard let collection else {
            for pointer in pointers { GEOSGeom_destroy_r(handle, pointer) }
            throw failure("collect \(geometries.count) shapes")
        }
        let whole = Geometry(collection, in: self)
        guard let union = GEOSUnaryUnion_r(handle, whole.pointer) else { throw failure("join \(geometries.count) shapes") }
        return Geometry(union, in: self)
    }

    /// The part of `geometry` inside the rectangle.
    func clip(_ geometry: Geometry, x: ClosedRange<Double>, y: ClosedRange<Double>) throws(GeometryError) -> Geometry {
        guard let clipped = GEOSClipByRect_r(handle, geometry.pointer, x.lowerBound, y.lowerBound, x.upperBound, y.upperBound) else {
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
        let type = GEOSGeomTypeId_r(handle, pointer)
        if type == Int32(GEOS_POLYGON.rawValue) {
            guard let shell = GEOSGetExteriorRing_r(handle, pointer) else { throw failure("read a polygon's shell") }
            var rings = [try points(of: shell)]
            let holes = GEOSGetNumInteriorRings_r(handle, pointer)
            guard holes >= 0 else { throw failure("count a polygon's holes") }
            for index in 0..<holes {
                guard let hole = GEOSGetInteriorRingN_r(handle, pointer, index) else { throw failure("read a polygon's hole") }
                rings.append(try points(of: hole))
            }
            if rings[0].count >= 4 { result.append(rings) }
        } else if type == Int32(GEOS_MULTIPOLYGON.rawValue) || type == Int32(GEOS_GEOMETRYCOLLECTION.rawValue) {
            let count = GEOSGetNumGeometries_r(handle, pointer)
            guard count >= 0 else { throw failure("count a collection's parts") }
            for index in 0..<count {
                guard let part = GEOSGetGeometryN_r(handle, pointer, index) else { throw failure("read a collection's part") }
                try collectPolygons(part, into: &result)
            }
        }
    }

    /// The points of a line (none for an empty one).
    func points(ofLine line: Geometry) throws(GeometryError) -> [(x: Double, y: Double)] {
        guard let pointer = line.pointer, GEOSGeomTypeId_r(handle, pointer) == Int32(GEOS_LINESTRING.rawValue) else { return [] }
        return try points(of: pointer)
    }

    private func points(of ring: OpaquePointer) throws(GeometryError) -> [(x: Double, y: Double)] {
        guard let sequence = GEOSGeom_getCoordSeq_r(handle, ring) else { throw failure("read a ring") }
        var size: UInt32 = 0
        guard GEOSCoordSeq_getSize_r(handle, sequence, &size) != 0 else { throw failure("measure a ring") }
        var flat = [Double](repeating: 0, count: 2 * Int(size))
        let copied = flat.withUnsafeMutableBufferPointer { GEOSCoordSeq_copyToBuffer_r(handle, sequence, $0.baseAddress, 0, 0) }
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
        if let owned { GEOSGeom_destroy_r(context.handle, owned) }
    }
}
