import MarkerFiles
import MarkerPins
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
        return Summary(pictures: contents.markers.count + contents.pictures.count, images: count, root: output.rootPath)
    }

    /// Draws every image of `layout` on `pool` (a route's pins and callouts on a pool of their own,
    /// as many threads), a few dozen per job, each written into its staged folder as it is drawn (so
    /// a run holds one chunk's bytes at a time, not the whole target's); returns each file's SHA-256
    /// by path and, if the layout's documents describe them, the images' records.
    private static func draw(
        _ layout: TargetLayout, format: ImageFormat, into staging: TargetOutput.Staging, on pool: CPUPool<MarkerRenderer>
    ) async throws(OutputError) -> (hashes: [String: String], images: DrawnImages) {
        let markers = layout.images.filter { if case .marker = $0.request { true } else { false } }
        let pictures = layout.images.filter { if case .picture = $0.request { true } else { false } }
        var hashes: [String: String] = [:]
        hashes.reserveCapacity(layout.images.count)
        var records = DrawnImages()
        for (path, sha256, drawn) in try await drawAll(markers, on: pool, { (renderer: inout MarkerRenderer, job: TargetImage) throws(OutputError) in
            try drawMarker(job, format: format, into: staging, renderer: renderer)
        }) {
            hashes[path] = sha256
            if layout.describesImages, case .marker(let image)? = drawn { records.markers[image.request] = image }
        }
        guard !pictures.isEmpty else { return (hashes, records) }
        let picturePool: CPUPool<PictureRenderers>
        do { picturePool = try await PictureRenderers.pool(name: "target-pictures", threads: pool.threadCount) } catch {
            throw OutputError(carrying: error)
        }
        defer { picturePool.shutdown() }
        for (path, sha256, drawn) in try await drawAll(
            pictures, on: picturePool,
            { (renderers: inout PictureRenderers, job: TargetImage) throws(OutputError) in
                try drawPicture(job, format: format, into: staging, renderers: renderers)
            })
        {
            hashes[path] = sha256
            if layout.describesImages, case .picture(let request, let image)? = drawn { records.pictures[request] = image }
        }
        return (hashes, records)
    }

    /// What one image's drawing leaves for the documents.
    private enum Drawn: Sendable {
        case marker(MarkerImage)
        case picture(PictureRequest, PictureImage)
    }

    /// Draws `images` on `pool`, a few dozen a job.
    private static func drawAll<Context>(
        _ images: [TargetImage], on pool: CPUPool<Context>,
        _ draw: @escaping @Sendable (inout Context, TargetImage) throws(OutputError) -> (path: String, sha256: String, drawn: Drawn?)
    ) async throws(OutputError) -> [(path: String, sha256: String, drawn: Drawn?)] {
        do {
            return try await pool.map(images, chunk: max(1, min(maximumChunk, images.count / (4 * pool.threadCount))), draw)
        } catch let error as OutputError {
            throw error
        } catch {
            throw OutputError("cannot draw the target's images: \(error)")
        }
    }

    /// Draws one marker and writes its file.
    private static func drawMarker(
        _ job: TargetImage, format: ImageFormat, into staging: TargetOutput.Staging, renderer: MarkerRenderer
    ) throws(OutputError) -> (path: String, sha256: String, drawn: Drawn?) {
        guard case .marker(let request) = job.request else { throw OutputError("\(job.request.baseName) is not a marker") }
        let image: MarkerImage
        let bytes: [UInt8]
        do { (image, bytes) = try renderer.renderFile(request, format: format) } catch {
            throw OutputError("cannot draw \(request.baseName): \(error)")
        }
        let path = job.path(of: image.fileName)
        try write(bytes, at: path, into: staging)
        return (path, image.sha256, .marker(image))
    }

    /// Draws one pin or callout and writes its file.
    private static func drawPicture(
        _ job: TargetImage, format: ImageFormat, into staging: TargetOutput.Staging, renderers: PictureRenderers
    ) throws(OutputError) -> (path: String, sha256: String, drawn: Drawn?) {
        guard case .picture(let request) = job.request else { throw OutputError("\(job.request.baseName) is not a pin or callout") }
        let image: PictureImage
        let bytes: [UInt8]
        do { (image, bytes) = try renderers.render(request, format: format) } catch {
            throw OutputError("cannot draw \(request.baseName): \(error.message)")
        }
        let path = job.path(of: image.fileName)
        try write(bytes, at: path, into: staging)
        return (path, image.sha256, .picture(request, image))
    }

    private static func write(_ bytes: [UInt8], at path: String, into staging: TargetOutput.Staging) throws(OutputError) {
        let (folder, name) = try staging.place(path)
        do { try folder.writeNew(bytes, as: name) } catch { throw OutputError(error.message) }
    }
}
