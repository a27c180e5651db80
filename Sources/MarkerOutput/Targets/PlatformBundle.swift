import MarkerFiles
public import MarkerRender
public import MarkerSpec
public import SystemPackage

/// Draws a set of markers for an app's platform and writes them into `--out` in its own form:
/// an asset catalog, Android resources, or SVGs with an index.
public enum PlatformBundle {
    /// What a run wrote.
    public struct Summary: Sendable {
        public let pictures: Int
        public let images: Int
        /// The folder written: `out/Markers.xcassets`.
        public let root: FilePath
    }

    /// The most images one run may draw (pictures × themes × scales), checked before any is drawn.
    public static let maximumImages = 100_000
    /// The most images one pool job draws: enough that a hop to a pool thread is a small part of
    /// the job, few enough that the last jobs still spread over every thread.
    static let maximumChunk = 64

    /// Draws `contents` for `target` in `format` (nil: the target's first) on `pool`, streaming each
    /// image into a staging folder, and publishes them as `out/<root>`, replacing only a root
    /// markerpaint wrote.
    public static func write(
        _ contents: TargetContents, target: PlatformTarget, format: ImageFormat? = nil, unit: Marker.Unit, to out: FilePath,
        pool: CPUPool<MarkerRenderer>
    ) async throws(OutputError) -> Summary {
        let format = format ?? target.formats[0]
        if let refusal = target.refusal(of: format) { throw OutputError(refusal) }
        guard !contents.markers.isEmpty else { throw OutputError("there are no markers to draw") }
        let count = contents.imageCount(for: target, format: format)
        guard count <= maximumImages else {
            throw OutputError(
                "the \(target.rawValue) target needs \(count) images (\(contents.markers.count) markers × \(target.themes.count) themes × "
                    + "\(target.scales(in: format).count) scales), more than the limit of \(maximumImages) per run; draw fewer labels")
        }
        let layout: TargetLayout
        switch target {
        case .ios: layout = try AssetCatalog.layout(contents, format: format)
        case .android: layout = try AndroidResources.layout(contents)
        case .web: layout = try WebBundle.layout(contents, unit: unit)
        case .maplibre: throw OutputError("the maplibre target is a route batch's sprites and GeoJSON (RouteBatch)")
        }
        let output = try TargetOutput(out, target: target)
        let staging = try output.makeStaging(for: layout)
        do {
            let (hashes, images) = try await draw(layout, format: format, into: staging, on: pool)
            try output.publish(staging, documents: try layout.documents(images), drawn: hashes)
        } catch {
            output.discard(staging)
            throw error
        }
        return Summary(pictures: contents.markers.count, images: count, root: output.rootPath)
    }

    /// Draws every image of `layout` on `pool`, a few dozen per job, each written into its staged
    /// folder as it is drawn (so a run holds one chunk's bytes at a time, not the whole target's);
    /// returns each file's SHA-256 by path and, if the layout's documents describe them, the images' records.
    private static func draw(
        _ layout: TargetLayout, format: ImageFormat, into staging: TargetOutput.Staging, on pool: CPUPool<MarkerRenderer>
    ) async throws(OutputError) -> (hashes: [String: String], images: [MarkerRequest: MarkerImage]) {
        let images = layout.images
        let chunk = max(1, min(maximumChunk, images.count / (4 * pool.threadCount)))
        let chunks = stride(from: 0, to: images.count, by: chunk).map { Array(images[$0..<min($0 + chunk, images.count)]) }
        var hashes: [String: String] = [:]
        hashes.reserveCapacity(images.count)
        var records: [MarkerRequest: MarkerImage] = [:]
        do {
            try await withThrowingTaskGroup(of: [(image: MarkerImage, path: String)].self) { group in
                // A few jobs per thread keep every thread busy without queueing the whole target at once.
                var next = 0
                func addNext() {
                    let jobs = chunks[next]
                    group.addTask { try await pool.run { renderer in try drawChunk(jobs, format: format, into: staging, renderer: renderer) } }
                    next += 1
                }
                while next < min(2 * pool.threadCount, chunks.count) { addNext() }
                while let done = try await group.next() {
                    for (image, path) in done {
                        hashes[path] = image.sha256
                        if layout.describesImages { records[image.request] = image }
                    }
                    if next < chunks.count { addNext() }
                }
            }
        } catch let error as OutputError {
            throw error
        } catch {
            throw OutputError("cannot draw the target's images: \(error)")
        }
        return (hashes, records)
    }

    /// One pool job: draws `jobs` and writes each file.
    private static func drawChunk(
        _ jobs: [TargetImage], format: ImageFormat, into staging: TargetOutput.Staging, renderer: MarkerRenderer
    ) throws(OutputError) -> [(image: MarkerImage, path: String)] {
        var done: [(image: MarkerImage, path: String)] = []
        for job in jobs {
            let image: MarkerImage
            let bytes: [UInt8]
            do { (image, bytes) = try renderer.renderFile(job.request, format: format) } catch {
                throw OutputError("cannot draw \(job.request.baseName): \(error)")
            }
            let path = job.path(of: image)
            let (folder, name) = try staging.place(path)
            do { try folder.writeNew(bytes, as: name) } catch { throw OutputError(error.message) }
            done.append((image, path))
        }
        return done
    }
}
