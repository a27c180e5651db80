import Foundation
import MarkerFiles
import MarkerOutput
import MarkerPixels
import MarkerRender
import MarkerSpec
import MarkerPNG
import SystemPackage

/// Renders one marker set through the naive path (draw, then Cairo's PNG writer, one after another)
/// and through markerpaint's batch path, in the same run, and reports both.
struct RenderBenchmark: Sendable {
    /// One path's figures.
    struct Figures: Sendable {
        var name: String
        var markers: Int
        var seconds: Double
        var bytes: Int
        /// Mean per-marker time of each step, in µs, measured on one thread.
        var steps: [(step: String, microseconds: Double)]

        var markersPerSecond: Double { Double(markers) / seconds }
    }

    let requests: [MarkerRequest]
    let workers: Int
    var compression = PNGEncoder.defaultCompression
    var pngFilter = PNGEncoder.defaultFilter

    /// `count` distinct markers at `scale`: labels 1, 2, 3 … alternately day and night.
    init(count: Int, scale: Int, workers: Int = ProcessInfo.processInfo.activeProcessorCount) throws(SpecError) {
        var requests: [MarkerRequest] = []
        for index in 0..<count {
            let marker = try Marker(kind: index % 10 == 9 ? .end : .distance, distance: Double(index / 2 + 1))
            requests.append(
                try MarkerRequest(marker: marker, theme: index.isMultiple(of: 2) ? .day : .night, scale: MarkerScale(integerLiteral: scale)))
        }
        self.requests = requests
        self.workers = workers
    }

    /// Exactly `requests`.
    init(requests: [MarkerRequest], workers: Int = ProcessInfo.processInfo.activeProcessorCount) {
        self.requests = requests
        self.workers = workers
    }

    /// The baseline, as a straightforward program draws: a Pango layout per label, then
    /// `cairo_surface_write_to_png` into a file, one marker after another.
    func naive(into folder: Folder) throws(RenderError) -> Figures {
        let renderer = try MarkerRenderer(method: .fromScratch)
        let clock = ContinuousClock()
        var draw = Duration.zero
        var encodeAndWrite = Duration.zero
        let start = clock.now
        for (index, request) in requests.enumerated() {
            let steps = try renderer.writeWithCairo(request, to: folder.path(of: "\(index).png").string)
            draw += steps.draw
            encodeAndWrite += steps.encodeAndWrite
        }
        let seconds = Self.seconds(clock.now - start)
        return Figures(
            name: "naive (Pango layout per label, cairo_surface_write_to_png, 1 thread)", markers: requests.count, seconds: seconds,
            bytes: Self.bytes(in: folder),
            steps: [("render", Self.micro(draw, requests.count)), ("encode+write", Self.micro(encodeAndWrite, requests.count))])
    }

    /// markerpaint's path: every core, libdeflate encoder, content hash, file per image.
    func batch(into folder: Folder) async throws -> Figures {
        let pool = try await CPUPool.renderers(threads: workers, compression: compression, pngFilter: pngFilter)
        defer { pool.shutdown() }
        let clock = ContinuousClock()
        let start = clock.now
        _ = try await BatchRenderer(pool: pool).render(requests, into: folder)
        let seconds = Self.seconds(clock.now - start)
        return Figures(
            name: "markerpaint (\(workers) workers, \(compression) compression, filter \(pngFilter.rawValue))", markers: requests.count,
            seconds: seconds,
            bytes: Self.bytes(in: folder), steps: try stepTimes(besides: folder))
    }

    /// Each step of the batch path alone, on one thread, over the first 500 markers.
    private func stepTimes(besides parent: Folder) throws(RenderError) -> [(step: String, microseconds: Double)] {
        let folder: Folder
        do { folder = try parent.makeSubfolder("steps") } catch { throw RenderError(error.message) }
        defer { try? parent.removeSubfolder("steps") }
        let renderer = try MarkerRenderer(compression: compression, pngFilter: pngFilter)
        let clock = ContinuousClock()
        var draw = Duration.zero
        var encode = Duration.zero
        var hash = Duration.zero
        var write = Duration.zero
        let sample = requests.prefix(500)
        for request in sample {
            let (rendered, drawTime, encodeTime) = try renderer.renderTimed(request)
            let image = rendered.image
            let t2 = clock.now
            let name = MarkerImage(request: request, png: rendered.png, width: image.width, height: image.height, anchor: image.anchor).fileName
            let t3 = clock.now
            do { try folder.writeNew(rendered.png, as: name) } catch { throw RenderError(error.message) }
            let t4 = clock.now
            draw += drawTime
            encode += encodeTime
            hash += t3 - t2
            write += t4 - t3
        }
        return [
            ("render", Self.micro(draw, sample.count)), ("encode", Self.micro(encode, sample.count)),
            ("hash", Self.micro(hash, sample.count)), ("write", Self.micro(write, sample.count)),
        ]
    }

    static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) * 1e-18
    }

    static func micro(_ duration: Duration, _ count: Int) -> Double { seconds(duration) * 1e6 / Double(max(count, 1)) }

    static func bytes(in folder: Folder) -> Int {
        let names = ((try? folder.entries()) ?? []).map(\.name)
        return names.filter { $0.hasSuffix(".png") }.reduce(0) { total, name in total + (folder.size(of: name) ?? 0) }
    }
}
