import CPangoCairo
import Foundation

/// Publishes a folder built elsewhere: staged beside its target, then swapped in in one step.
public enum AtomicDirectory {
    /// A new empty staging folder beside `target` (same filesystem, so the final rename is atomic).
    public static func makeStaging(for target: String) throws(RenderError) -> String {
        let parent = (target as NSString).deletingLastPathComponent
        let staging = (parent.isEmpty ? "." : parent) + "/." + (target as NSString).lastPathComponent
            + ".staging-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        guard mkdir(staging, 0o755) == 0 else {
            throw RenderError("cannot make a staging folder beside \(target): \(String(cString: strerror(errno)))")
        }
        return staging
    }

    /// Makes `staging` the new `target`; the previous `target`, if any, is removed afterwards.
    public static func publish(_ staging: String, as target: String) throws(RenderError) {
        if markerpaint_exchange_paths(staging, target) == 0 {
            // `staging` now holds the previous output.
            try? FileManager.default.removeItem(atPath: staging)
            return
        }
        guard errno == ENOENT else {
            throw RenderError("cannot replace \(target): \(String(cString: strerror(errno)))")
        }
        guard rename(staging, target) == 0 else {
            throw RenderError("cannot move output into \(target): \(String(cString: strerror(errno)))")
        }
    }

    /// Removes staging folders that runs killed part-way left beside `target`.
    public static func removeAbandonedStaging(for target: String) {
        let parent = (target as NSString).deletingLastPathComponent
        let folder = parent.isEmpty ? "." : parent
        let prefix = "." + (target as NSString).lastPathComponent + ".staging-"
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return }
        for name in names where name.hasPrefix(prefix) {
            let pid = name.dropFirst(prefix.count).split(separator: "-").first.flatMap { Int32($0) } ?? 0
            // Ours, or a live process's: theirs to finish or remove.
            if pid == getpid() || (pid > 0 && kill(pid, 0) == 0) { continue }
            try? FileManager.default.removeItem(atPath: folder + "/" + name)
        }
    }
}
