/// `body` applied to each of `items`, at most `width` at once, the results in the order they
/// finish. A request that needs thousands of images keeps only `width` of them queued on the
/// render threads, so another request's few images wait behind a handful, not behind thousands.
func concurrently<Item: Sendable, Result: Sendable>(
    _ items: [Item], width: Int, _ body: @escaping @Sendable (Item) async throws -> Result
) async throws -> [Result] {
    try await withThrowingTaskGroup(of: Result.self) { group in
        var results: [Result] = []
        results.reserveCapacity(items.count)
        var next = items.startIndex
        while next < items.endIndex && next - items.startIndex < max(1, width) {
            let item = items[next]
            group.addTask { try await body(item) }
            next += 1
        }
        while let result = try await group.next() {
            results.append(result)
            if next < items.endIndex {
                let item = items[next]
                group.addTask { try await body(item) }
                next += 1
            }
        }
        return results
    }
}
