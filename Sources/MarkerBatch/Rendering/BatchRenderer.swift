import Dispatch
import Foundation
import MarkerFiles
import MarkerRender
import Synchronization

/// One image of a batch as written to disk; the PNG bytes are not kept.
public struct BatchImage: Sendable {
    public let request: MarkerRequest
    public let fileName: String
    public let sha256: String
    public let width: Int
    public let height: Int
    public let anchor: PixelPoint
    /// Taken from the previous output instead of drawn.
    public let reused: Bool

    public init(request: MarkerRequest, fileName: String, sha256: String, width: Int, height: Int, anchor: PixelPoint, reused: Bool) {
        self.request = request
        self.fileName = fileName
        self.sha256 = sha256
        self.width = width
        self.height = height
        self.anchor = anchor
        self.reused = reused
    }
}

/// Renders many images on every core and streams each PNG straight to disk.
public struct BatchRenderer: Sendable {
    public let workers: Int
    public let pngLevel: Int
    public let pngFilter: PNGEncoder.Filter

    public init(workers: Int = ProcessInfo.processInfo.activeProcessorCount,
                pngLevel: Int = PNGEncoder.defaultLevel, pngFilter: PNGEncoder.Filter = PNGEncoder.defaultFilter) {
        self.workers = max(1, workers)
        self.pngLevel = pngLevel
        self.pngFilter = pngFilter
    }

    /// Writes every request's PNG into `folder` as a new file. `reusable` offers an earlier,
    /// verified image for a request, which is then not drawn; `progress` hears (done, total) from any thread.
    public func render(
        _ requests: [MarkerRequest],
        into folder: Folder,
        reusable: @Sendable (MarkerRequest) -> BatchImage? = { _ in nil },
        progress: @Sendable (Int, Int) -> Void = { _, _ in }
    ) throws(RenderError) -> [BatchImage] {
        struct Shared {
            var next = 0
            var done = 0
            var results: [BatchImage?]
            var failure: RenderError?
        }
        let shared = Mutex(Shared(results: Array(repeating: nil, count: requests.count)))
        let total = requests.count
        let workerCount = min(workers, max(1, total))
        DispatchQueue.concurrentPerform(iterations: workerCount) { _ in
            // Each worker owns its renderer: Pango font maps and Cairo contexts are not shared across threads.
            let renderer: MarkerRenderer
            do throws(RenderError) {
                renderer = try MarkerRenderer(pngLevel: pngLevel, pngFilter: pngFilter)
            } catch {
                shared.withLock { $0.failure = $0.failure ?? error }
                return
            }
            while true {
                let index: Int? = shared.withLock { state in
                    guard state.failure == nil, state.next < total else { return nil }
                    defer { state.next += 1 }
                    return state.next
                }
                guard let index else { return }
                let request = requests[index]
                do throws(RenderError) {
                    let image: BatchImage
                    if let previous = reusable(request) {
                        image = previous
                    } else {
                        let rendered = try renderer.render(request)
                        do throws(FileError) {
                            try folder.writeNew(rendered.png, as: rendered.fileName)
                        } catch {
                            throw RenderError(error.message)
                        }
                        image = BatchImage(request: request, fileName: rendered.fileName, sha256: rendered.sha256,
                                           width: rendered.width, height: rendered.height, anchor: rendered.anchor, reused: false)
                    }
                    let done = shared.withLock { state in
                        state.results[index] = image
                        state.done += 1
                        return state.done
                    }
                    progress(done, total)
                } catch {
                    shared.withLock { $0.failure = $0.failure ?? error }
                }
            }
        }
        let outcome = shared.withLock { ($0.failure, $0.results) }
        if let failure = outcome.0 { throw failure }
        let images = outcome.1.compactMap { $0 }
        guard images.count == total else { throw RenderError("\(total - images.count) images were neither drawn nor failed") }
        return images
    }
}
