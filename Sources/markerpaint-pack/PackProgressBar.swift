import CommandSupport
import MarkerPack
import Synchronization


/// A one-line progress bar on standard error: tiles, bytes, rate and time left, redrawn at most
/// ten times a second.
final class PackProgressBar: Sendable {
    private let total: Int
    private let started = ContinuousClock.now
    private let lastDrawn = Mutex<ContinuousClock.Instant?>(nil)

    init(total: Int) { self.total = total }

    func show(_ progress: TilePack.Progress) {
        let now = ContinuousClock.now
        let draw = lastDrawn.withLock { last in
            if let last, now - last < .milliseconds(100), progress.tiles < total { return false }
            last = now
            return true
        }
        guard draw else { return }
        let (whole, fraction) = (now - started).components
        let seconds = max(Double(whole) + Double(fraction) / 1e18, 0.001)
        let share = total == 0 ? 1 : Double(progress.tiles) / Double(total)
        let width = 24
        let filled = Int(share * Double(width))
        let rate = Double(progress.bytes) / seconds
        let left = share > 0 ? seconds * (1 - share) / share : 0
        let line = "\r[" + String(repeating: "#", count: filled) + String(repeating: ".", count: width - filled) + "] "
            + "\(progress.tiles)/\(total) tiles, \(Self.bytes(Double(progress.bytes))), \(Self.bytes(rate))/s, \(Int(left.rounded())) s left\u{1B}[K"
        Self.write(line)
    }

    func finish() { Self.write("\r\u{1B}[K") }

    static func bytes(_ value: Double) -> String {
        if value >= 1e9 { return "\(Double(Int(value / 1e7)) / 100) GB" }
        if value >= 1e6 { return "\(Double(Int(value / 1e5)) / 10) MB" }
        if value >= 1e3 { return "\(Int(value / 1e3)) kB" }
        return "\(Int(value)) B"
    }

    private static func write(_ text: String) {
        Terminal.write(text, to: .error)
    }
}
