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
    /// One reading of a combined case: a start, an end, a distance or a countdown.
    public struct Part: Sendable, Codable, Hashable {
        public var kind: Marker.Kind
        public var distance: Double

        public init(kind: Marker.Kind, distance: Double) {
            self.kind = kind
            self.distance = distance
        }
    }

    public var kind: Marker.Kind
    /// The reading; not given for `combined`, whose `parts` read.
    public var distance: Double?
    /// The readings a `combined` case joins, in order.
    public var parts: [Part]?
    public var unit: Marker.Unit
    /// The locale the label reads in (`de` for `7,5km`); absent for a decimal point.
    public var locale: String?
    /// The marker interval of the route the label is read in (`0.5` reads `10.5km`); absent for 1.
    public var interval: Double?
    /// `day` or `night`; absent when `palette` is given.
    public var theme: String?
    /// A palette file, relative to the goldens folder.
    public var palette: String?
    /// Pixels per point: 1, 1.5, 2, 3 or 4.
    public var scale: Double

    public init(
        kind: Marker.Kind, distance: Double? = nil, parts: [Part]? = nil, unit: Marker.Unit = .km, locale: String? = nil,
        interval: Double? = nil, theme: String? = nil, palette: String? = nil, scale: Double
    ) {
        self.kind = kind
        self.distance = distance
        self.parts = parts
        self.unit = unit
        self.locale = locale
        self.interval = interval
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
        let marker = try marker()
        guard let pixelScale = MarkerScale(exactly: scale) else {
            throw GoldenError("scale must be \(MarkerScale.choices) (got \(scale))")
        }
        do {
            return try MarkerRequest(marker: marker, theme: resolvedTheme, scale: pixelScale)
        } catch {
            throw GoldenError(error.description)
        }
    }
}

extension GoldenCase {
    /// What the case draws: `distance` for a start, distance or end; `parts` for a combined marker.
    func marker() throws(GoldenError) -> Marker {
        let mark = try checked { () throws(SpecError) in try LabelLocale(named: locale) }.decimalMark
        let precision = try checked { () throws(SpecError) in try MarkerInterval(named: interval.map { "\($0)" }) }.precision
        switch (kind, distance, parts) {
        case (.combined, nil, let parts?):
            return try checked { () throws(SpecError) in
                var checked: [Marker.Part] = []
                for part in parts { checked.append(try Marker.Part(kind: part.kind, distance: part.distance, mark: mark, precision: precision)) }
                return try Marker(combining: checked, unit: unit)
            }
        case (.combined, _, _):
            throw GoldenError("a combined case gives \"parts\" and no \"distance\"")
        case (_, let distance?, nil):
            return try checked { () throws(SpecError) in try Marker(kind: kind, distance: distance, unit: unit, mark: mark, precision: precision) }
        default:
            throw GoldenError("a \(kind.rawValue) case gives \"distance\" and no \"parts\"")
        }
    }

    private func checked<Made>(_ make: () throws(SpecError) -> Made) throws(GoldenError) -> Made {
        do { return try make() } catch { throw GoldenError(error.description) }
    }
}

/// The file that lists the golden cases.
struct GoldenCaseList: Codable {
    var cases: [GoldenCase]
    /// Pins and callouts, beside the markers; absent in a list of markers alone.
    var pins: [GoldenPin]?
    var callouts: [GoldenCallout]?
}
