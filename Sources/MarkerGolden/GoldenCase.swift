import MarkerRender
public import MarkerSpec
import SystemPackage

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// One entry of `Goldens/cases.json`: a marker to draw and compare with its golden image.
public struct GoldenCase: Sendable, Codable, Hashable {
    public var kind: Marker.Kind
    public var distance: Double
    public var unit: Marker.Unit
    /// `day` or `night`; absent when `palette` is given.
    public var theme: String?
    /// A palette file, relative to the goldens folder.
    public var palette: String?
    public var scale: Int

    public init(kind: Marker.Kind, distance: Double, unit: Marker.Unit = .km, theme: String? = nil, palette: String? = nil, scale: Int) {
        self.kind = kind
        self.distance = distance
        self.unit = unit
        self.theme = theme
        self.palette = palette
        self.scale = scale
    }

    /// The marker request this case draws; palettes are read relative to `directory`.
    func request(relativeTo directory: FilePath) throws(GoldenError) -> MarkerRequest {
        let resolvedTheme: Theme
        switch (theme, palette) {
        case (let name?, nil):
            guard let builtIn = Theme.named(name) else {
                throw GoldenError("theme \"\(name)\" is not day or night")
            }
            resolvedTheme = builtIn
        case (nil, let file?):
            do { resolvedTheme = try Theme.load(paletteFile: directory.appending(file)) } catch { throw GoldenError(error.description) }
        default:
            throw GoldenError("give exactly one of \"theme\" and \"palette\"")
        }
        do {
            return try MarkerRequest(marker: Marker(kind: kind, distance: distance, unit: unit), theme: resolvedTheme, scale: scale)
        } catch {
            throw GoldenError(error.description)
        }
    }
}

/// The file that lists the golden cases.
struct GoldenCaseList: Codable {
    var cases: [GoldenCase]
}
