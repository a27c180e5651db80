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

    /// Draws `contents` for `target` and writes them as `out/<root>`, replacing only a root markerpaint wrote.
    public static func write(
        _ contents: TargetContents, target: PlatformTarget, unit: Marker.Unit, to out: FilePath, renderer: MarkerRenderer
    ) throws(OutputError) -> Summary {
        guard target != .maplibre else { throw OutputError("the maplibre target is a route batch's sprites and GeoJSON (RouteBatch)") }
        guard !contents.markers.isEmpty else { throw OutputError("there are no markers to draw") }
        let images = contents.imageCount(for: target)
        guard images <= maximumImages else {
            throw OutputError(
                "the \(target.rawValue) target needs \(images) images (\(contents.markers.count) markers × \(target.themes.count) themes × "
                    + "\(target.scales.count) scales), more than the limit of \(maximumImages) per run; draw fewer labels")
        }
        let output = try TargetOutput(out, target: target)
        let drawPNG = { (request: MarkerRequest) throws(OutputError) -> RenderedMarker in
            do { return try renderer.render(request) } catch { throw OutputError("cannot draw \(request.baseName): \(error)") }
        }
        let files: TargetFiles
        switch target {
        case .ios: files = try AssetCatalog.files(contents, draw: drawPNG)
        case .android: files = try AndroidResources.files(contents, draw: drawPNG)
        case .web:
            files = try WebBundle.files(contents, unit: unit) { (request) throws(OutputError) in
                do { return try renderer.renderDocument(request, format: .svg) } catch {
                    throw OutputError("cannot draw \(request.baseName): \(error)")
                }
            }
        case .maplibre: throw OutputError("the maplibre target is a route batch's sprites and GeoJSON (RouteBatch)")
        }
        try output.publish(files)
        return Summary(pictures: contents.markers.count, images: images, root: output.rootPath)
    }
}
