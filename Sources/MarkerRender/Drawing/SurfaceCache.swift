/// Surfaces a renderer keeps by key, so that what repeats across a batch is drawn once.
///
/// Bounded: past `limit` the oldest is dropped, so a hostile run of distinct keys costs memory
/// for `limit` surfaces at most.
package struct SurfaceCache<Key: Hashable> {
    package let limit: Int
    private var surfaces: [Key: CairoSurface] = [:]
    private var order: [Key] = []

    package init(limit: Int) {
        self.limit = limit
    }

    /// The surface kept for `key`, or `make()`'s, kept from now on.
    package mutating func surface(for key: Key, make: () throws(RenderError) -> CairoSurface) throws(RenderError) -> CairoSurface {
        if let kept = surfaces[key] { return kept }
        let made = try make()
        keep(made, for: key)
        return made
    }

    /// The surface kept for `key`, if there is one.
    package func kept(_ key: Key) -> CairoSurface? { surfaces[key] }

    /// Keeps `surface` for `key`, dropping the oldest past `limit`.
    package mutating func keep(_ surface: CairoSurface, for key: Key) {
        if surfaces[key] == nil {
            if order.count >= limit { surfaces[order.removeFirst()] = nil }
            order.append(key)
        }
        surfaces[key] = surface
    }
}
