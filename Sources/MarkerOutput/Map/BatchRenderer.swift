public import MarkerFiles
public import MarkerRender
public import MarkerSpec

/// Draws a batch's images on a render pool and streams each PNG straight into a folder.
public struct BatchRenderer: Sendable {
    /// One image of the batch and whether an earlier run's file was taken instead of drawing it.
    public struct Outcome: Sendable {
        public let image: MarkerImage
        public let reused: Bool
    }

    public let pool: CPUPool<MarkerRenderer>

    public init(pool: CPUPool<MarkerRenderer>) {
        self.pool = pool
    }

    /// Writes every request's PNG into `folder` as a new file, in request order. `reusable` offers
    /// an earlier, verified image for a request, which is then not drawn; `progress` hears (done, total).
    public func render(
        _ requests: [MarkerRequest], into folder: Folder,
        reusable: (MarkerRequest) -> MarkerImage? = { _ in nil },
        progress: @Sendable (Int, Int) -> Void = { _, _ in }
    ) async throws(OutputError) -> [Outcome] {
        let total = requests.count
        var outcomes: [Outcome?] = Array(repeating: nil, count: total)
        var toDraw: [Int] = []
        for (index, request) in requests.enumerated() {
            if let previous = reusable(request) {
                outcomes[index] = Outcome(image: previous, reused: true)
            } else {
                toDraw.append(index)
            }
        }
        var done = total - toDraw.count
        if done > 0 { progress(done, total) }
        // Jobs of several images each: a hop to a pool thread and back costs about as much as
        // encoding a marker, so per-image jobs would spend a tenth of the batch waking threads.
        let chunk = max(1, min(Self.maximumChunk, toDraw.count / (4 * pool.threadCount)))
        let chunks = stride(from: 0, to: toDraw.count, by: chunk).map { toDraw[$0..<min($0 + chunk, toDraw.count)] }
        do {
            try await withThrowingTaskGroup(of: [(Int, MarkerImage)].self) { group in
                // A few jobs per thread keep every thread busy without queueing the whole batch at once.
                let window = 2 * pool.threadCount
                var next = 0
                func addNext() {
                    let indices = Array(chunks[next])
                    group.addTask { try await draw(indices.map { ($0, requests[$0]) }, into: folder) }
                    next += 1
                }
                while next < min(window, chunks.count) { addNext() }
                while let drawn = try await group.next() {
                    for (index, image) in drawn { outcomes[index] = Outcome(image: image, reused: false) }
                    done += drawn.count
                    progress(done, total)
                    if next < chunks.count { addNext() }
                }
            }
        } catch {
            throw OutputError(carrying: error)
        }
        let finished = outcomes.compactMap { $0 }
        guard finished.count == total else { throw OutputError("\(total - finished.count) images were neither drawn nor failed") }
        return finished
    }

    /// The most images one pool job draws.
    static let maximumChunk = 16

    /// Draws `requests` on a pool thread and writes each PNG there, so the bytes never cross threads.
    private func draw(_ requests: [(Int, MarkerRequest)], into folder: Folder) async throws -> [(Int, MarkerImage)] {
        try await pool.run { renderer throws(OutputError) -> [(Int, MarkerImage)] in
            var drawn: [(Int, MarkerImage)] = []
            drawn.reserveCapacity(requests.count)
            for (index, request) in requests {
                let rendered: RenderedMarker
                do throws(RenderError) { rendered = try renderer.render(request) } catch { throw OutputError(error.message) }
                do throws(FileError) { try folder.writeNew(rendered.png, as: rendered.image.fileName) } catch {
                    throw OutputError(error.message)
                }
                drawn.append((index, rendered.image))
            }
            return drawn
        }
    }
}
