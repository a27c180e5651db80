public import MarkerSpec

/// Where a set of markers goes: a MapLibre/Mapbox map (sprites and GeoJSON, see `RouteBatch`), or
/// an app's own images in its platform's form.
public enum PlatformTarget: String, Sendable, CaseIterable {
    /// Sprite sheets, markers.geojson and a style layer: `RouteBatch`.
    case maplibre
    /// An Xcode asset catalog: one imageset per marker at @1x–@3x, night as its dark appearance.
    case ios
    /// Android resources: drawable-{m,h,xh,xxh,xxxh}dpi, night in drawable-night-*.
    case android
    /// SVG files with content-hashed names and a JSON index, for a web page.
    case web

    /// The folder a platform target is written as, inside `--out`.
    public var rootName: String {
        switch self {
        case .maplibre: ""
        case .ios: "Markers.xcassets"
        case .android: "res"
        case .web: "web"
        }
    }

    /// The scales the platform needs: iOS's @1x–@3x, Android's five densities, and @2x for the
    /// web's SVGs (vectors at any size; the embedded shadow sharp on high-density screens).
    public var scales: [MarkerScale] {
        switch self {
        case .maplibre: [1, 2]
        case .ios: [1, 2, 3]
        case .android: AndroidResources.densities.map(\.scale)
        case .web: [WebBundle.scale]
        }
    }

    /// The file formats the platform takes, its default first: map SDKs and Android draw PNGs
    /// (Android's vector drawables are XML of their own, not SVG or PDF); Xcode takes PNGs or a
    /// vector PDF; a page takes SVG.
    public var formats: [ImageFormat] {
        switch self {
        case .maplibre, .android: [.png]
        case .ios: [.png, .pdf]
        case .web: [.svg]
        }
    }

    /// The scales drawn in `format`: a vector PDF is drawn once, at 1 (its page in points), and
    /// Xcode renders it at every scale.
    public func scales(in format: ImageFormat) -> [MarkerScale] { format == .pdf ? [1] : scales }

    /// Why `format` is not one of `formats`, as a sentence for `--format`; nil if it is.
    public func refusal(of format: ImageFormat) -> String? {
        guard !formats.contains(format) else { return nil }
        let takes = formats.map(\.rawValue).joined(separator: " or ")
        let elsewhere = [ImageFormat.svg: "SVG is --target web's", .pdf: "PDF is --target ios's", .png: "PNG is every other target's"]
        return "--target \(rawValue) takes \(takes), not \(format.rawValue); \(elsewhere[format] ?? "")"
    }

    /// Both built-in themes: the platforms switch between them with the system's dark mode.
    public var themes: [Theme] { [.day, .night] }

    /// The file markerpaint records what it wrote in, beside the root: `markerpaint-ios.json`.
    /// Beside, not inside: Android refuses any file directly in `res/`, and Xcode warns of one in a catalog.
    public var recordName: String { "markerpaint-\(rawValue).json" }
}
