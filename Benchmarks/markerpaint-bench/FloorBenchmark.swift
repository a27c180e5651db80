import CMarkerFloor
import Crypto
import Foundation
import MarkerFiles
import MarkerRender
import MarkerSpec
import SystemPackage

/// The floor under markerpaint's batch path: the same drawing (the renderer's kept background
/// copied, then every Cairo call `MarkerPainter` makes over it), grey+alpha unpremultiply,
/// libdeflate, CRCs, SHA-256 and a file write per marker, all made from C with nothing in
/// between, one thread. Plans are made before the clock starts.
struct FloorBenchmark {
    let requests: [MarkerRequest]
    let pngLevel: Int
    /// Paint every marker's shadow, pill and dot instead of copying the kept background: the
    /// floor of the drawing before backgrounds were kept.
    var paintsBackground = false

    /// Mean per-marker time of each step, in µs, and the total.
    func run(into folder: Folder) throws -> [(step: String, microseconds: Double)] {
        let renderer = try MarkerRenderer(pngLevel: pngLevel)
        let plans = try requests.map { CPlan(try renderer.paintPlan($0), paintsBackground: paintsBackground) }
        guard let state = floor_new(Int32(pngLevel)) else { throw RenderError("libdeflate could not allocate a compressor") }
        defer { floor_free(state) }
        let directory = open(folder.path.string, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard directory >= 0 else { throw RenderError("cannot open \(folder.path) for the floor's files") }
        defer { close(directory) }
        var times = floor_times()
        let clock = ContinuousClock()
        var hash = Duration.zero
        var write = Duration.zero
        for (index, plan) in plans.enumerated() {
            var png: UnsafePointer<UInt8>?
            let length = withUnsafePointer(to: plan.marker) { floor_encode(state, $0, &times, &png) }
            guard length > 0, let png else { throw RenderError("the C floor could not draw or encode marker \(index)") }
            let t0 = clock.now
            let digest = SHA256.hash(data: UnsafeRawBufferPointer(start: png, count: length))
            let t1 = clock.now
            let name = "\(index)-\(digest.prefix(5).map { String($0, radix: 16) }.joined()).png"
            guard floor_write(directory, name, png, length) == 0 else { throw RenderError("the C floor could not write \(name)") }
            hash += t1 - t0
            write += clock.now - t1
        }
        let count = Double(plans.count)
        let steps = [
            ("draw", times.draw / 1000 / count), ("unpremultiply", times.unpremultiply / 1000 / count),
            ("deflate", times.deflate / 1000 / count), ("frame+CRC", times.frame / 1000 / count),
            ("hash", RenderBenchmark.micro(hash, plans.count)), ("write", RenderBenchmark.micro(write, plans.count)),
        ]
        return steps + [("total", steps.reduce(0) { $0 + $1.1 })]
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
