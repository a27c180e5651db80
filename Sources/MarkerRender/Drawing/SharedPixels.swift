import CPangoCairo
import Synchronization

/// Finished surfaces the renderers of one pool copy from, made by whichever renderer needed one first.
///
/// A pool's renderers draw the same few dozen backgrounds and shadow masks; each making its own
/// would blur and paint every one once per thread. Only bytes cross threads here, never a Cairo
/// object: a renderer copies them into a surface of its own. Bounded like `SurfaceCache`: past
/// `limit` entries the oldest is dropped.
package final class SharedPixels<Key: Hashable & Sendable>: Sendable {
    /// One surface's pixel rows, as Cairo laid them out.
    struct Pixels: Sendable {
        let width: Int
        let height: Int
        let stride: Int
        let format: cairo_format_t
        let bytes: [UInt8]
    }

    private struct State: ~Copyable {
        var pixels: [Key: Pixels] = [:]
        var order: [Key] = []
        var hits = 0
    }

    let limit: Int
    private let state = Mutex(State())

    package init(limit: Int) {
        self.limit = limit
    }

    /// How many times a renderer took pixels another had made.
    var hits: Int { state.withLock { $0.hits } }

    /// A new surface holding the pixels kept for `key`, or nil.
    func surface(for key: Key) throws(RenderError) -> CairoSurface? {
        let found = state.withLock { state in
            let pixels = state.pixels[key]
            if pixels != nil { state.hits += 1 }
            return pixels
        }
        guard let pixels = found else { return nil }
        let surface = try CairoSurface(format: pixels.format, width: pixels.width, height: pixels.height)
        guard surface.stride == pixels.stride else { throw RenderError("Cairo changed its row stride between two surfaces") }
        surface.withPixels { data, _ in
            pixels.bytes.withUnsafeBufferPointer { bytes in
                guard let base = bytes.baseAddress else { return }
                data.update(from: base, count: bytes.count)
            }
        }
        return surface
    }

    /// Keeps a copy of `surface`'s pixels for `key`, unless another renderer kept them first.
    func keep(_ surface: CairoSurface, for key: Key) {
        let bytes = surface.withPixels { data, stride in [UInt8](UnsafeBufferPointer(start: data, count: stride * surface.height)) }
        let pixels = Pixels(
            width: surface.width, height: surface.height, stride: surface.stride, format: cairo_image_surface_get_format(surface.pointer),
            bytes: bytes)
        state.withLock { state in
            guard state.pixels[key] == nil else { return }
            if state.order.count >= limit { state.pixels[state.order.removeFirst()] = nil }
            state.pixels[key] = pixels
            state.order.append(key)
        }
    }
}

/// What the renderers of one pool share: their backgrounds and shadow masks.
package struct SharedDrawing: Sendable {
    let backgrounds: SharedPixels<MarkerBackground.Key>
    let shadowMasks: SharedPixels<ShadowMask.Key>

    /// As many entries as a renderer keeps of its own, so that one never finds less shared than it held.
    package init() {
        backgrounds = SharedPixels(limit: MarkerBackground.limit)
        shadowMasks = SharedPixels(limit: ShadowMask.limit)
    }
}
