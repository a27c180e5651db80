import MarkerRender
import MarkerSpec
import Testing

@testable import MarkerService

/// The byte-bounded LRU, entity tags, and the image store's shared renders, below HTTP.
@Suite("Caching")
struct CachingTests {
    @Test("the cache evicts least recently used entries until the new one fits in its bytes")
    func evictsByBytes() {
        var cache = ByteLimitedLRU<String, Int>(capacity: 100)
        cache.insert(1, for: "a", cost: 40)
        cache.insert(2, for: "b", cost: 40)
        #expect(cache.value(for: "a") == 1)  // now "b" is the least recent
        let evicted = cache.insert(3, for: "c", cost: 30)
        #expect(evicted.map(\.key) == ["b"])
        #expect(cache.keysByRecency == ["c", "a"])
        #expect(cache.totalCost == 70)
        let more = cache.insert(4, for: "d", cost: 100)
        #expect(more.map(\.key) == ["a", "c"])
        #expect(cache.keysByRecency == ["d"])
        #expect(cache.totalCost == 100)
    }

    @Test("replacing an entry updates its cost; an entry larger than the cache is not kept")
    func replaceAndOversize() {
        var cache = ByteLimitedLRU<String, Int>(capacity: 100)
        cache.insert(1, for: "a", cost: 60)
        #expect(cache.insert(2, for: "a", cost: 10).isEmpty)
        #expect(cache.value(for: "a") == 2)
        #expect(cache.totalCost == 10)
        #expect(cache.insert(3, for: "huge", cost: 101).isEmpty)
        #expect(!cache.contains("huge"))
        #expect(cache.count == 1)
    }

    @Test("slots freed by eviction are reused, and the order stays right through many operations")
    func churn() {
        var cache = ByteLimitedLRU<Int, Int>(capacity: 10)
        var model: [Int] = []  // most recent first, each entry costs 1
        for step in 0..<1000 {
            let key = (step * 7919) % 37
            if step % 3 == 0, cache.value(for: key) != nil {
                model.removeAll { $0 == key }
                model.insert(key, at: 0)
            } else {
                cache.insert(step, for: key, cost: 1)
                model.removeAll { $0 == key }
                model.insert(key, at: 0)
                model = Array(model.prefix(10))
            }
            #expect(cache.keysByRecency == model)
        }
        #expect(cache.totalCost == 10)
    }

    @Test(
        "If-None-Match matches by opaque tag, weak or strong, in lists and repeated fields",
        arguments: [
            (["\"abc\""], true), (["W/\"abc\""], true), (["\"x\", \"abc\""], true), (["\"x\"", "W/\"abc\""], true),
            (["*"], true), (["\"abcd\""], false), (["abc"], false), (["\"ab\", \"c\""], false), ([], false),
        ])
    func entityTags(fields: [String], matches: Bool) {
        #expect(EntityTag.ifNoneMatch(fields, matches: "abc") == matches)
    }

    @Test("identical requests arriving together are drawn once")
    func concurrentMissesRenderOnce() async throws {
        let metrics = ServiceMetrics()
        let pool = try await CPUPool<MarkerRenderer>.start(name: "render", threads: 2) { try MarkerRenderer() }
        defer { pool.shutdown() }
        let images = MarkerImages(pool: pool, cacheBytes: 1 << 20, metrics: metrics)
        let request = try MarkerRequest(marker: Marker(kind: .end, distance: 321), theme: .night, scale: 2)
        let expected = try MarkerRenderer().render(request)
        let names = try await withThrowingTaskGroup(of: String.self) { group in
            for _ in 0..<50 { group.addTask { try await images.image(for: request).fileName } }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(names == Array(repeating: expected.image.fileName, count: 50))
        let exposition = String(decoding: metrics.exposition(), as: UTF8.self)
        #expect(exposition.contains("markerpaint_cache_misses_total 1\n"))
        #expect(exposition.contains("markerpaint_cache_hits_total 49\n"))
        #expect(exposition.contains("markerpaint_render_duration_seconds_count 1\n"))
    }

    @Test("a full cache keeps serving correct images, holding no more than its bytes")
    func boundedCache() async throws {
        let metrics = ServiceMetrics()
        let pool = try await CPUPool<MarkerRenderer>.start(name: "render", threads: 2) { try MarkerRenderer() }
        defer { pool.shutdown() }
        let capacity = 20_000  // a handful of 2x markers
        let images = MarkerImages(pool: pool, cacheBytes: capacity, metrics: metrics)
        let renderer = try MarkerRenderer()
        for distance in 10..<40 {
            let request = try MarkerRequest(marker: Marker(kind: .distance, distance: Double(distance)), theme: .day, scale: 2)
            let image = try await images.image(for: request)
            #expect(image.fileName == (try renderer.render(request)).image.fileName)
        }
        let exposition = String(decoding: metrics.exposition(), as: UTF8.self)
        let bytesLine = try #require(exposition.split(separator: "\n").first { $0.hasPrefix("markerpaint_cache_bytes ") })
        let cachedBytes = try #require(Double(bytesLine.split(separator: " ")[1]))
        #expect(cachedBytes > 0 && cachedBytes <= Double(capacity))
    }
}
