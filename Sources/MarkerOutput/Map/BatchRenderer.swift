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
        let reused = total - toDraw.count
        if reused > 0 { progress(reused, total) }
        // Jobs of several images each: a hop to a pool thread and back costs about as much as
        // encoding a marker, so per-image jobs would spend a tenth of the batch waking threads.
        let chunk = max(1, min(Self.maximumChunk, toDraw.count / (4 * pool.threadCount)))
        do {
            // Each PNG is written on the pool thread that drew it, so the bytes never cross threads.
            let drawn = try await pool.map(toDraw, chunk: chunk, progress: { progress(reused + $0, total) }) {
                (renderer, index) throws(OutputError) -> MarkerImage in
                let rendered: RenderedMarker
                do throws(RenderError) { rendered = try renderer.render(requests[index]) } catch { throw OutputError(error.message) }
                do throws(FileError) { try folder.writeNew(rendered.png, as: rendered.image.fileName) } catch {
                    throw OutputError(error.message)
                }
                return rendered.image
            }
            for (index, image) in zip(toDraw, drawn) { outcomes[index] = Outcome(image: image, reused: false) }
        } catch {
            throw OutputError(carrying: error)
        }
        let finished = outcomes.compactMap { $0 }
        guard finished.count == total else { throw OutputError("\(total - finished.count) images were neither drawn nor failed") }
        return finished
    }

    /// The most images one pool job draws.
    static let maximumChunk = 16
}
