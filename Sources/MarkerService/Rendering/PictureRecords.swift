import MarkerSpec
import Synchronization

/// What a route's pins and callouts drew, by request: a route document needs only each picture's
/// size, anchor and hash, so a route posted again (or another route with the same waypoints)
/// draws none of them. Bounded by the bytes its keys hold.
final class PictureRecords: Sendable {
    private let cache: Mutex<ByteLimitedLRU<PictureRequest, PictureImage>>

    init(capacityBytes: Int) {
        cache = Mutex(ByteLimitedLRU(capacity: capacityBytes))
    }

    /// The record of `request`, if drawn before and still held.
    func record(of request: PictureRequest) -> PictureImage? {
        cache.withLock { $0.value(for: request) }
    }

    /// Holds `image` as what `request` draws.
    func insert(_ image: PictureImage, for request: PictureRequest) {
        let cost: Int
        switch request {
        case .pin(let pin): cost = 256 + pin.pin.nameLabel.utf8.count
        case .callout(let callout): cost = 256 + callout.callout.title.utf8.count + callout.callout.lines.reduce(0) { $0 + $1.utf8.count }
        }
        _ = cache.withLock { $0.insert(image, for: request, cost: cost) }
    }
}
