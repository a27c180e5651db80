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
        do {
            try await withThrowingTaskGroup(of: (Int, MarkerImage).self) { group in
                // A few jobs per thread keep every thread busy without queueing the whole batch at once.
                let window = 2 * pool.threadCount
                var next = 0
                while next < min(window, toDraw.count) {
                    let index = toDraw[next]
                    group.addTask { (index, try await draw(requests[index], into: folder)) }
                    next += 1
                }
                while let (index, image) = try await group.next() {
                    outcomes[index] = Outcome(image: image, reused: false)
                    done += 1
                    progress(done, total)
                    if next < toDraw.count {
                        let index = toDraw[next]
                        group.addTask { (index, try await draw(requests[index], into: folder)) }
                        next += 1
                    }
                }
            }
        } catch let error as OutputError {
            throw error
        } catch {
            throw OutputError("\(error)")
        }
        let finished = outcomes.compactMap { $0 }
        guard finished.count == total else { throw OutputError("\(total - finished.count) images were neither drawn nor failed") }
        return finished
    }

    /// Draws `request` on a pool thread and writes its PNG there, so the bytes never cross threads.
    private func draw(_ request: MarkerRequest, into folder: Folder) async throws -> MarkerImage {
        try await pool.run { renderer throws(OutputError) -> MarkerImage in
            let rendered: RenderedMarker
            do throws(RenderError) { rendered = try renderer.render(request) } catch { throw OutputError(error.message) }
            do throws(FileError) { try folder.writeNew(rendered.png, as: rendered.image.fileName) } catch { throw OutputError(error.message) }
            return rendered.image
        }
    }
}
