import MarkerSpec

/// An Xcode asset catalog, `Markers.xcassets`: one imageset per marker, named by what it shows
/// (`end-123km`, so `UIImage(named: "end-123km")`), holding the day theme at @1x, @2x and @3x and
/// the night theme as the same images' dark appearance, so the app's dark mode switches them.
/// In PDF, each theme is one vector PDF in points, which Xcode renders at every scale
/// (`preserves-vector-representation` keeps it sharp when the image is drawn larger).
///
/// Names are readable, not content-hashed: an app bundle is rebuilt whole, so a reused name never
/// shows a stale picture there, and code refers to images by name.
enum AssetCatalog {
    /// The imageset of `marker`: `end-123km`, `combined-start0km_end8.6km`, `distance-7,5km`.
    static func name(of marker: Marker) -> String { "\(marker.kind.rawValue)-\(marker.label)" }

    /// The catalog in `format` (PNG or PDF).
    static func layout(_ contents: TargetContents, format: ImageFormat) throws(OutputError) -> TargetLayout {
        var images: [TargetImage] = []
        var imagesets: [(path: String, entries: [JSONValue])] = []
        // Markers, then a route's pins and callouts (`pin-water`, `callout-spring`).
        let pictures: [(name: String, image: (Theme, MarkerScale, String, String) throws(OutputError) -> TargetImage)] =
            contents.markers.map { marker in (Self.name(of: marker), { (theme, scale, folder, file) throws(OutputError) in
                try TargetImage(marker, theme: theme, scale: scale, folder: folder, name: file) }) }
            + contents.pictures.map { picture, name in (name, { (theme, scale, folder, file) throws(OutputError) in
                try TargetImage(picture, theme: theme, scale: scale, folder: folder, name: file) }) }
        for (name, image) in pictures {
            var entries: [JSONValue] = []
            for theme in PlatformTarget.ios.themes {
                for scale in PlatformTarget.ios.scales(in: format) {
                    let dark = theme == .night
                    // A PDF is one file per theme, at no scale of its own.
                    let fileName = "\(name)\(dark ? "-dark" : "")" + (format == .pdf ? ".pdf" : "@\(scale)x.png")
                    images.append(try image(theme, scale, "\(name).imageset", fileName))
                    var members: [JSONValue.Member] = []
                    if dark {
                        members.append(
                            .init("appearances", .array([.object([.init("appearance", .string("luminosity")), .init("value", .string("dark"))])])))
                    }
                    members += [.init("filename", .string(fileName)), .init("idiom", .string("universal"))]
                    if format != .pdf { members.append(.init("scale", .string("\(scale)x"))) }
                    entries.append(.object(members))
                }
            }
            imagesets.append(("\(name).imageset/Contents.json", entries))
        }
        let listed = imagesets
        return TargetLayout(root: PlatformTarget.ios.rootName, images: images) { _ throws(OutputError) in
            var documents = ["Contents.json": try Self.json(.object([Self.info]))]
            for (path, entries) in listed {
                var members: [JSONValue.Member] = [.init("images", .array(entries)), Self.info]
                if format == .pdf { members.append(.init("properties", .object([.init("preserves-vector-representation", .bool(true))]))) }
                documents[path] = try Self.json(.object(members))
            }
            return documents
        }
    }

    /// Xcode's own `info` member, naming the tool that wrote the file.
    private static let info = JSONValue.Member("info", .object([.init("author", .string("markerpaint")), .init("version", .integer(1))]))

    /// `value` as Xcode writes its JSON: indented, slashes as they are, a final newline.
    static func json(_ value: JSONValue) throws(OutputError) -> [UInt8] {
        do { return try value.bytes(JSONValue.Formatting(prettyPrinted: true, withoutEscapingSlashes: true)) + [0x0A] } catch {
            throw OutputError("cannot write JSON: \(error)")
        }
    }
}
