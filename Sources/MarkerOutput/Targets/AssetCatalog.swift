import MarkerRender
import MarkerSpec

/// An Xcode asset catalog, `Markers.xcassets`: one imageset per marker, named by what it shows
/// (`end-123km`, so `UIImage(named: "end-123km")`), holding the day theme at @1x, @2x and @3x and
/// the night theme as the same images' dark appearance, so the app's dark mode switches them.
///
/// Names are readable, not content-hashed: an app bundle is rebuilt whole, so a reused name never
/// shows a stale picture there, and code refers to images by name.
enum AssetCatalog {
    /// The imageset of `marker`: `end-123km`, `combined-start0km_end8.6km`, `distance-7,5km`.
    static func name(of marker: Marker) -> String { "\(marker.kind.rawValue)-\(marker.label)" }

    /// The catalog's files; `draw` gives each request's PNG.
    static func files(
        _ contents: TargetContents, draw: (MarkerRequest) throws(OutputError) -> RenderedMarker
    ) throws(OutputError) -> TargetFiles {
        var files = TargetFiles(root: PlatformTarget.ios.rootName)
        try files.add("Contents.json", try Self.json(.object([Self.info])))
        for marker in contents.markers {
            let name = Self.name(of: marker)
            var images: [JSONValue] = []
            for theme in PlatformTarget.ios.themes {
                for scale in PlatformTarget.ios.scales {
                    let request: MarkerRequest
                    do { request = try MarkerRequest(marker: marker, theme: theme, scale: scale) } catch { throw OutputError(error.description) }
                    let dark = theme == .night
                    let fileName = "\(name)\(dark ? "-dark" : "")@\(scale)x.png"
                    try files.add("\(name).imageset/\(fileName)", try draw(request).png)
                    var members: [JSONValue.Member] = []
                    if dark {
                        members.append(
                            .init("appearances", .array([.object([.init("appearance", .string("luminosity")), .init("value", .string("dark"))])])))
                    }
                    members += [.init("filename", .string(fileName)), .init("idiom", .string("universal")), .init("scale", .string("\(scale)x"))]
                    images.append(.object(members))
                }
            }
            try files.add("\(name).imageset/Contents.json", try Self.json(.object([.init("images", .array(images)), Self.info])))
        }
        return files
    }

    /// Xcode's own `info` member, naming the tool that wrote the file.
    private static let info = JSONValue.Member("info", .object([.init("author", .string("markerpaint")), .init("version", .integer(1))]))

    static func json(_ value: JSONValue) throws(OutputError) -> [UInt8] {
        do { return try value.bytes(JSONValue.Formatting(prettyPrinted: true, withoutEscapingSlashes: true)) + [0x0A] } catch {
            throw OutputError("cannot write JSON: \(error)")
        }
    }
}
