import Dispatch
import Foundation
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

    /// Writes every request's PNG into `folder`. `reusable` offers an earlier, verified image for
    /// a request (it is linked, not drawn); `progress` hears (done, total) from any thread.
    public func render(
        _ requests: [MarkerRequest],
        into folder: String,
        reusable: @Sendable (MarkerRequest) -> BatchImage? = { _ in nil },
        reusedFrom previousFolder: String? = nil,
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
                    if let previous = reusable(request), let previousFolder,
                       Self.link(previousFolder + "/" + previous.fileName, to: folder + "/" + previous.fileName) {
                        image = previous
                    } else {
                        let rendered = try renderer.render(request)
                        try AtomicFile.writeNew(rendered.png, to: folder + "/" + rendered.fileName)
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
        return outcome.1.map { $0! }
    }

    /// A hard link to the earlier file (same filesystem), or a copy where links are not allowed.
    private static func link(_ existing: String, to path: String) -> Bool {
        if Foundation.link(existing, path) == 0 { return true }
        return (try? FileManager.default.copyItem(atPath: existing, toPath: path)) != nil
    }
}
