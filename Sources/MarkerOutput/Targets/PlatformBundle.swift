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

    /// Draws `contents` for `target` in `format` (nil: the target's first) and writes them as
    /// `out/<root>`, replacing only a root markerpaint wrote.
    public static func write(
        _ contents: TargetContents, target: PlatformTarget, format: ImageFormat? = nil, unit: Marker.Unit, to out: FilePath,
        renderer: MarkerRenderer
    ) throws(OutputError) -> Summary {
        guard target != .maplibre else { throw OutputError("the maplibre target is a route batch's sprites and GeoJSON (RouteBatch)") }
        let format = format ?? target.formats[0]
        if let refusal = target.refusal(of: format) { throw OutputError(refusal) }
        guard !contents.markers.isEmpty else { throw OutputError("there are no markers to draw") }
        let images = contents.imageCount(for: target, format: format)
        guard images <= maximumImages else {
            throw OutputError(
                "the \(target.rawValue) target needs \(images) images (\(contents.markers.count) markers × \(target.themes.count) themes × "
                    + "\(target.scales(in: format).count) scales), more than the limit of \(maximumImages) per run; draw fewer labels")
        }
        let output = try TargetOutput(out, target: target)
        // Each image as the file it is written as: a PNG, or the same drawing as an SVG or PDF document.
        let draw = { (request: MarkerRequest) throws(OutputError) -> (bytes: [UInt8], image: MarkerImage) in
            do {
                if format == .png {
                    let rendered = try renderer.render(request)
                    return (rendered.png, rendered.image)
                }
                let document = try renderer.renderDocument(request, format: format)
                return (document.bytes, document.image)
            } catch {
                throw OutputError("cannot draw \(request.baseName): \(error)")
            }
        }
        let files: TargetFiles
        switch target {
        case .ios: files = try AssetCatalog.files(contents, format: format, draw: draw)
        case .android: files = try AndroidResources.files(contents, draw: draw)
        case .web: files = try WebBundle.files(contents, unit: unit, draw: draw)
        case .maplibre: throw OutputError("the maplibre target is a route batch's sprites and GeoJSON (RouteBatch)")
        }
        try output.publish(files)
        return Summary(pictures: contents.markers.count, images: images, root: output.rootPath)
    }
}
