import MarkerRender
import MarkerRoute
import MarkerSpec

/// A web page's markers, `web/`: each marker as an SVG in both themes, under content-hashed names
/// (`end-123km-night@2x-<hash>.svg`, so a browser may cache them for ever), and `markers.json`,
/// the index a page reads: each picture's file, size and anchor in CSS pixels, and for a route each
/// marker's position and zooms.
///
/// The SVGs are drawn at @2x: shapes and text are vectors at any size, and the shadow, embedded
/// as an image, is sharp on high-density screens. The index gives sizes in CSS pixels (half the
/// SVG's), which a page sets as the image's width and height.
enum WebBundle {
    static let indexName = "markers.json"
    static let scale: MarkerScale = 2

    /// The bundle's files; `draw` gives each request's SVG and its record.
    static func files(
        _ contents: TargetContents, unit: Marker.Unit, draw: (MarkerRequest) throws(OutputError) -> (bytes: [UInt8], image: MarkerImage)
    ) throws(OutputError) -> TargetFiles {
        var files = TargetFiles(root: PlatformTarget.web.rootName)
        var pictures: [JSONValue.Member] = []
        let points = 1 / scale.factor
        for marker in contents.markers {
            var themes: [JSONValue.Member] = []
            for theme in PlatformTarget.web.themes {
                let request: MarkerRequest
                do { request = try MarkerRequest(marker: marker, theme: theme, scale: scale) } catch { throw OutputError(error.description) }
                let document = try draw(request)
                let image = document.image
                try files.add(image.fileName, document.bytes)
                themes.append(
                    .init(
                        theme.name,
                        .object([
                            .init("file", .string(image.fileName)),
                            .init("width", .number(Double(image.width) * points)), .init("height", .number(Double(image.height) * points)),
                            .init("anchorX", .number(image.anchor.x * points)), .init("anchorY", .number(image.anchor.y * points)),
                        ])))
            }
            pictures.append(
                .init(
                    AssetCatalog.name(of: marker),
                    .object([.init("kind", .string(marker.kind.rawValue)), .init("label", .string(marker.label))] + themes)))
        }
        var index: [JSONValue.Member] = [.init("unit", .string(unit.rawValue)), .init("images", .object(pictures))]
        if let placed = contents.placed {
            index.append(
                .init(
                    "markers",
                    .array(
                        placed.map { routeMarker in
                            .object([
                                .init("image", .string(AssetCatalog.name(of: routeMarker.marker))),
                                .init("lon", .number(Self.rounded(routeMarker.coordinate.longitude))),
                                .init("lat", .number(Self.rounded(routeMarker.coordinate.latitude))),
                                .init("stage", .integer(routeMarker.stage)), .init("zooms", .array(routeMarker.zooms.map(JSONValue.integer))),
                            ])
                        })))
        }
        try files.add(indexName, try AssetCatalog.json(.object(index)))
        return files
    }

    /// `degrees` to seven decimals, about a centimetre: more digits only make the index longer.
    private static func rounded(_ degrees: Double) -> Double { (degrees * 1e7).rounded() / 1e7 }
}
