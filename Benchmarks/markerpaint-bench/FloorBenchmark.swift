import CMarkerFloor
import Crypto
import Foundation
import MarkerFiles
import MarkerRender
import MarkerSpec
import Synchronization
import SystemPackage

/// The floor under markerpaint's batch path: the same drawing (the renderer's kept background
/// copied, then every Cairo call `MarkerPainter` makes over it), grey+alpha unpremultiply,
/// libdeflate, CRCs, SHA-256 and a file write per marker, all made from C with nothing in
/// between. Plans are made before the clock starts. On several threads, each draws its share
/// (every `threads`-th marker) with plans, fonts and backgrounds of its own, all at once, as
/// markerpaint's workers do: the machine's cost of running two at once is then the floor's too.
struct FloorBenchmark {
    let requests: [MarkerRequest]
    let pngLevel: Int
    /// Paint every marker's shadow, pill and dot instead of copying the kept background: the
    /// floor of the drawing before backgrounds were kept.
    var paintsBackground = false
    var threads = 1

    /// Mean per-marker time of each step, in µs, summed over threads, and the total per core:
    /// the wall time × threads ÷ markers.
    func run(into folder: Folder) throws -> [(step: String, microseconds: Double)] {
        let shares = try (0..<threads).map { thread in
            let renderer = try MarkerRenderer()
            let mine = Swift.stride(from: thread, to: requests.count, by: threads).map { requests[$0] }
            return Share(renderer: renderer, plans: try mine.map { CPlan(try renderer.paintPlan($0), paintsBackground: paintsBackground) })
        }
        let directory = open(folder.path.string, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard directory >= 0 else { throw RenderError("cannot open \(folder.path) for the floor's files") }
        defer { close(directory) }
        let results = Mutex<[Result<ThreadTimes, RenderError>]>([])
        let clock = ContinuousClock()
        let start = clock.now
        DispatchQueue.concurrentPerform(iterations: threads) { thread in
            let outcome = Self.draw(shares[thread].plans, thread: thread, threads: threads, level: pngLevel, directory: directory)
            results.withLock { $0.append(outcome) }
        }
        let wall = clock.now - start
        var times = ThreadTimes()
        for outcome in results.withLock({ $0 }) { times.add(try outcome.get()) }
        let count = Double(requests.count)
        let steps = [
            ("draw", times.c.draw / 1000 / count), ("unpremultiply", times.c.unpremultiply / 1000 / count),
            ("deflate", times.c.deflate / 1000 / count), ("frame+CRC", times.c.frame / 1000 / count),
            ("hash", RenderBenchmark.micro(times.hash, requests.count)), ("write", RenderBenchmark.micro(times.write, requests.count)),
        ]
        let total = threads == 1 ? steps.reduce(0) { $0 + $1.1 } : RenderBenchmark.micro(wall * threads, requests.count)
        return steps + [(threads == 1 ? "total" : "per core", total)]
    }

    /// One thread's renderer (it owns the fonts and backgrounds the plans point into) and plans.
    /// Only that thread reads them, and only after they are made: safe to hand over.
    struct Share: @unchecked Sendable {
        let renderer: MarkerRenderer
        let plans: [CPlan]
    }

    /// What one thread's clocks read.
    struct ThreadTimes: Sendable {
        var c = floor_times()
        var hash = Duration.zero
        var write = Duration.zero

        mutating func add(_ other: ThreadTimes) {
            c.draw += other.c.draw
            c.unpremultiply += other.c.unpremultiply
            c.deflate += other.c.deflate
            c.frame += other.c.frame
            hash += other.hash
            write += other.write
        }
    }

    /// One thread's share: every plan drawn, encoded, hashed and written.
    private static func draw(_ plans: [CPlan], thread: Int, threads: Int, level: Int, directory: Int32) -> Result<ThreadTimes, RenderError> {
        guard let state = floor_new(Int32(level)) else { return .failure(RenderError("libdeflate could not allocate a compressor")) }
        defer { floor_free(state) }
        var times = ThreadTimes()
        let clock = ContinuousClock()
        for (offset, plan) in plans.enumerated() {
            let index = thread + offset * threads
            var png: UnsafePointer<UInt8>?
            let length = withUnsafePointer(to: plan.marker) { floor_encode(state, $0, &times.c, &png) }
            guard length > 0, let png else { return .failure(RenderError("the C floor could not draw or encode marker \(index)")) }
            let t0 = clock.now
            let digest = SHA256.hash(data: UnsafeRawBufferPointer(start: png, count: length))
            let t1 = clock.now
            let name = "\(index)-\(digest.prefix(5).map { String($0, radix: 16) }.joined()).png"
            guard floor_write(directory, name, png, length) == 0 else { return .failure(RenderError("the C floor could not write \(name)")) }
            times.hash += t1 - t0
            times.write += clock.now - t1
        }
        return .success(times)
    }
}

/// A `PaintPlan` as the C floor's struct, with every array it points into owned here.
final class CPlan {
    private(set) var marker = floor_marker()
    private let glyphs: UnsafeMutableBufferPointer<cairo_glyph_t>
    private let runs: UnsafeMutableBufferPointer<floor_glyph_run>
    private let labels: UnsafeMutableBufferPointer<floor_label>
    private let dividers: UnsafeMutableBufferPointer<floor_rect>
    private let icons: UnsafeMutableBufferPointer<floor_icon>
    private let plan: PaintPlan

    init(_ plan: PaintPlan, paintsBackground: Bool) {
        self.plan = plan
        let allRuns = plan.labels.flatMap(\.runs)
        glyphs = .allocate(capacity: max(1, allRuns.reduce(0) { $0 + $1.glyphs.count }))
        runs = .allocate(capacity: max(1, allRuns.count))
        labels = .allocate(capacity: max(1, plan.labels.count))
        dividers = .allocate(capacity: max(1, plan.dividers.count))
        icons = .allocate(capacity: max(1, plan.icons.count))
        var glyphIndex = 0
        var runIndex = 0
        for (labelIndex, label) in plan.labels.enumerated() {
            let firstRun = runIndex
            for run in label.runs {
                let firstGlyph = glyphIndex
                for glyph in run.glyphs {
                    glyphs[glyphIndex] = cairo_glyph_t(index: glyph.index, x: glyph.x, y: glyph.y)
                    glyphIndex += 1
                }
                runs[runIndex] = floor_glyph_run(font: run.font, glyphs: glyphs.baseAddress! + firstGlyph, count: Int32(run.glyphs.count))
                runIndex += 1
            }
            labels[labelIndex] = floor_label(
                x: label.x, y: label.y, scale: plan.scale, runs: runs.baseAddress! + firstRun, run_count: Int32(label.runs.count))
        }
        for (index, divider) in plan.dividers.enumerated() { dividers[index] = Self.rect(divider) }
        for (index, icon) in plan.icons.enumerated() { icons[index] = floor_icon(kind: icon.isFlag ? 1 : 0, rect: Self.rect(icon.rect)) }
        let palette = plan.palette
        marker = floor_marker(
            width: Int32(plan.width), height: Int32(plan.height), scale: plan.scale, shadow_mask: plan.shadowMask,
            background: paintsBackground ? nil : plan.background,
            shadow: Self.colour(palette.shadow), pill_fill: Self.colour(palette.pillFill), pill_border: Self.colour(palette.pillBorder),
            label: Self.colour(palette.label), dot_fill: Self.colour(palette.dotFill), dot_border: Self.colour(palette.dotBorder),
            pill: Self.rect(plan.pill), corner_radius: plan.cornerRadius, border_width: plan.borderWidth,
            dot_x: plan.dot.x, dot_y: plan.dot.y, dot_radius: plan.dot.radius,
            dividers: UnsafePointer(dividers.baseAddress), divider_count: Int32(plan.dividers.count),
            labels: UnsafePointer(labels.baseAddress), label_count: Int32(plan.labels.count),
            icons: UnsafePointer(icons.baseAddress), icon_count: Int32(plan.icons.count))
    }

    deinit {
        glyphs.deallocate()
        runs.deallocate()
        labels.deallocate()
        dividers.deallocate()
        icons.deallocate()
    }

    private static func rect(_ rect: Rect) -> floor_rect { floor_rect(x: rect.x, y: rect.y, width: rect.width, height: rect.height) }
    private static func colour(_ colour: Colour) -> floor_colour {
        floor_colour(red: colour.red, green: colour.green, blue: colour.blue, alpha: colour.alpha)
    }
}
