import RouteModel
import MarkerSpec
import RoutePlacement

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

    /// The SVGs and their index.
    static func layout(_ contents: TargetContents, unit: Marker.Unit) throws(OutputError) -> TargetLayout {
        var images: [TargetImage] = []
        for marker in contents.markers {
            for theme in PlatformTarget.web.themes {
                images.append(try TargetImage(marker, theme: theme, scale: scale, folder: "", name: nil))
            }
        }
        for (picture, _) in contents.pictures {
            for theme in PlatformTarget.web.themes {
                images.append(try TargetImage(picture, theme: theme, scale: scale, folder: "", name: nil))
            }
        }
        return TargetLayout(root: PlatformTarget.web.rootName, images: images, describesImages: true) { (drawn) throws(OutputError) in
            [indexName: try Self.index(contents, unit: unit, drawn: drawn)]
        }
    }

    /// `markers.json`.
    private static func index(_ contents: TargetContents, unit: Marker.Unit, drawn: DrawnImages) throws(OutputError) -> [UInt8] {
        let points = 1 / scale.factor
        func entry(fileName: String, width: Int, height: Int, anchor: PixelPoint) -> JSONValue {
            .object([
                .init("file", .string(fileName)),
                .init("width", .number(Double(width) * points)), .init("height", .number(Double(height) * points)),
                .init("anchorX", .number(anchor.x * points)), .init("anchorY", .number(anchor.y * points)),
            ])
        }
        var pictures: [JSONValue.Member] = []
        for marker in contents.markers {
            var members: [JSONValue.Member] = [.init("kind", .string(marker.kind.rawValue)), .init("label", .string(marker.label))]
            for theme in PlatformTarget.web.themes {
                guard let request = try? MarkerRequest(marker: marker, theme: theme, scale: scale), let image = drawn.markers[request] else {
                    throw OutputError("no SVG was drawn for \(marker.label) in \(theme.name)")
                }
                members.append(.init(theme.name, entry(fileName: image.fileName, width: image.width, height: image.height, anchor: image.anchor)))
            }
            pictures.append(.init(AssetCatalog.name(of: marker), .object(members)))
        }
        for (picture, name) in contents.pictures {
            var members: [JSONValue.Member] = [.init("kind", .string(picture.kind))]
            for theme in PlatformTarget.web.themes {
                guard let request = try? PictureRequest(picture, theme: theme, scale: scale), let image = drawn.pictures[request] else {
                    throw OutputError("no SVG was drawn for \(name) in \(theme.name)")
                }
                members.append(.init(theme.name, entry(fileName: image.fileName, width: image.width, height: image.height, anchor: image.anchor)))
            }
            pictures.append(.init(name, .object(members)))
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
                                .init("stage", .integer(routeMarker.stage)), .init("minzoom", .integer(routeMarker.minzoom)),
                                .init("minzoomTurned", .integer(routeMarker.minzoomTurned)),
                                .init("zooms", .array(routeMarker.zooms.map(JSONValue.integer))),
                            ])
                        })))
        }
        if !contents.pins.isEmpty {
            var pins: [JSONValue] = []
            for routePin in contents.pins {
                guard let icon = contents.name(of: .pin(routePin.pin)), let callout = contents.name(of: .callout(routePin.callout)) else {
                    throw OutputError("no pictures were named for pin \(routePin.number)")
                }
                pins.append(
                    .object([
                        .init("pin", .integer(routePin.number)), .init("image", .string(icon)), .init("callout", .string(callout)),
                        .init("title", .string(routePin.callout.title)),
                        .init("lon", .number(Self.rounded(routePin.coordinate.longitude))),
                        .init("lat", .number(Self.rounded(routePin.coordinate.latitude))),
                        .init("minzoom", .integer(routePin.minzoom)), .init("minzoomTurned", .integer(routePin.minzoomTurned)),
                        .init("zooms", .array(routePin.zooms.map(JSONValue.integer))),
                    ]))
            }
            index.append(.init("pins", .array(pins)))
        }
        return try AssetCatalog.json(.object(index))
    }

    /// `degrees` to seven decimals, about a centimetre: more digits only make the index longer.
    private static func rounded(_ degrees: Double) -> Double { (degrees * 1e7).rounded() / 1e7 }
}
