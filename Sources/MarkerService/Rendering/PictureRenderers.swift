import MarkerPins
import MarkerRender

/// What each thread of the picture pool draws pins and callouts with.
struct PictureRenderers {
    let pins: PinRenderer
    let callouts: CalloutRenderer

    init() throws(RenderError) {
        pins = try PinRenderer()
        callouts = try CalloutRenderer()
    }

    /// A pool of `threads` threads, each with its own renderers; at most `capacity` jobs waiting.
    static func pool(threads: Int, capacity: Int) async throws -> CPUPool<PictureRenderers> {
        try await CPUPool.start(name: "pictures", threads: threads, capacity: capacity) { try PictureRenderers() }
    }
}
