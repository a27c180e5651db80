import CoreMetrics
import Hummingbird
import MarkerRender
import MarkerSpec
import Metrics
import Synchronization

/// A rendered marker as the service keeps and sends it: its record and its bytes (PNG, SVG or PDF).
struct CachedImage: Sendable {
    let image: MarkerImage
    /// The file's bytes, ready to send without copying (a `ByteBuffer` shares its storage).
    let bytes: ByteBuffer

    init(image: MarkerImage, bytes: [UInt8]) {
        self.image = image
        self.bytes = ByteBuffer(bytes: bytes)
    }

    /// The content-hashed name, e.g. `end-123km-night@2x-3f9a1c2b7d.png`.
    var fileName: String { image.fileName }

    /// What the cache counts for this image: the bytes' allocation plus what the entry costs besides
    /// (names, links, table slots).
    var cost: Int { bytes.capacity + Self.entryOverhead }

    static let entryOverhead = 256
}

/// Every image the service serves: from a bounded LRU cache, or drawn on the render pool.
///
/// Identical requests that miss at the same time share one render.
final class MarkerImages: Sendable {
    /// A picture in one file format: what the cache and the renders under way are keyed by.
    private struct Key: Hashable, Sendable {
        let request: MarkerRequest
        let format: ImageFormat
    }

    private struct State {
        var cache: ByteLimitedLRU<Key, CachedImage>
        /// Cached images by file name, so a name in the cache is found without parsing it.
        var keysByName: [String: Key] = [:]
        /// Renders under way; later identical requests wait for these instead of drawing again.
        var rendering: [Key: Task<Result<CachedImage, RenderError>, Never>] = [:]
    }

    private let state: Mutex<State>
    private let pool: CPUPool<MarkerRenderer>
    private let metrics: ServiceMetrics

    /// How many images one request has drawn at once: half the render threads (at least one), so
    /// that however many one request needs, others' images find a thread free and the CPU shared.
    var requestWidth: Int { max(1, pool.threadCount / 2) }

    init(pool: CPUPool<MarkerRenderer>, cacheBytes: Int, metrics: ServiceMetrics) {
        self.pool = pool
        self.metrics = metrics
        state = Mutex(State(cache: ByteLimitedLRU(capacity: cacheBytes)))
    }

    /// The image for `request` in `format`, drawn only if neither cached nor already being drawn.
    func image(for request: MarkerRequest, format: ImageFormat = .png) async throws(RenderError) -> CachedImage {
        enum Lookup {
            case cached(CachedImage)
            case rendering(Task<Result<CachedImage, RenderError>, Never>, startedHere: Bool)
        }
        // Marker equality is by picture, so 123 and 123.2 share one entry.
        let key = Key(request: request, format: format)
        let lookup = state.withLock { state -> Lookup in
            if let image = state.cache.value(for: key) { return .cached(image) }
            if let task = state.rendering[key] { return .rendering(task, startedHere: false) }
            let task = Task { await self.draw(key) }
            state.rendering[key] = task
            return .rendering(task, startedHere: true)
        }
        switch lookup {
        case .cached(let image):
            metrics.cacheHits.increment()
            return image
        case .rendering(let task, let startedHere):
            (startedHere ? metrics.cacheMisses : metrics.cacheHits).increment()
            return try await task.value.get()
        }
    }

    /// Whether `request` in `format` is in the cache (or being drawn): asking for it costs no drawing.
    func isCached(_ request: MarkerRequest, format: ImageFormat = .png) -> Bool {
        let key = Key(request: request, format: format)
        return state.withLock { $0.cache.contains(key) || $0.rendering[key] != nil }
    }

    /// Whether the image a content-hashed name stands for is in the cache; false for names that do
    /// not parse (answering those costs nothing either).
    func isCached(named fileName: String) -> Bool {
        if state.withLock({ $0.keysByName[fileName] != nil }) { return true }
        guard let name = ImageName.parse(fileName), let format = ImageFormat(endingFileName: fileName) else { return true }
        return isCached(name.request, format: format)
    }

    /// The image a content-hashed name stands for, or nil if the name does not parse or its hash is
    /// not the hash of what it describes. Any instance can answer any name: it draws what the name says.
    func image(named fileName: String) async throws(RenderError) -> CachedImage? {
        let cached = state.withLock { state in
            state.keysByName[fileName].flatMap { state.cache.value(for: $0) }
        }
        if let cached {
            metrics.cacheHits.increment()
            return cached
        }
        guard let name = ImageName.parse(fileName), let format = ImageFormat(endingFileName: fileName) else { return nil }
        let image = try await image(for: name.request, format: format)
        return image.fileName == fileName ? image : nil
    }

    /// Draws on the pool, then caches the image and retires the in-flight entry in one step, so a
    /// request arriving in between finds one or the other.
    private func draw(_ key: Key) async -> Result<CachedImage, RenderError> {
        let result: Result<CachedImage, RenderError>
        let metrics = metrics
        do {
            let (image, bytes) = try await pool.run { renderer in
                try metrics.renderDuration.measure { try renderer.renderFile(key.request, format: key.format) }
            }
            result = .success(CachedImage(image: image, bytes: bytes))
        } catch let error as RenderError {
            result = .failure(error)
        } catch is CPUPool<MarkerRenderer>.Refusal {
            result = .failure(RenderError("the service is shutting down"))
        } catch {
            result = .failure(RenderError("\(error)"))
        }
        let cachedBytes = state.withLock { state in
            state.rendering[key] = nil
            if case .success(let image) = result {
                for evicted in state.cache.insert(image, for: key, cost: image.cost) {
                    state.keysByName[evicted.value.fileName] = nil
                }
                if state.cache.contains(key) { state.keysByName[image.fileName] = key }
            }
            return state.cache.totalCost
        }
        metrics.cacheBytes.record(cachedBytes)
        return result
    }
}
