import Foundation
import MarkerRender
import MarkerRoute

/// Everything a map needs for a route's markers, written into one folder in a single step.
public struct RouteBatch: Sendable {
    public struct Options: Sendable {
        public var themes: [Theme] = [.day, .night]
        public var scales: [Int] = [1, 2]
        public var unit: DistanceUnit = .km
        public var cumulative = false
        public var sprites = true
        public var workers = ProcessInfo.processInfo.activeProcessorCount
        /// The most markers the route may need; refused before any is made.
        public var limits = MarkerPlan.Limits.standard
        /// The most distinct images one run may draw (markers' pictures × themes × scales).
        public var maximumImages = 100_000

        public init() {}
    }

    public struct Summary: Sendable {
        public var stages: Int
        public var markers: Int
        public var images: Int
        public var rendered: Int
        public var reused: Int
        public var warnings: [String]
    }

    public let route: Route
    public let options: Options
    /// Where every marker goes and what it reads.
    public let plan: MarkerPlan
    /// Every distinct image the markers need.
    public let imageSet: RouteImageSet

    /// Plans the route's markers and images, refusing a route over the options' limits before
    /// anything is drawn: markers are counted from the stage lengths before any is made.
    public init(route: Route, options: Options) throws(RenderError) {
        self.route = route
        self.options = options
        do {
            plan = try MarkerPlan(route: route, unit: options.unit, cumulative: options.cumulative, limits: options.limits)
        } catch {
            throw RenderError(error.message)
        }
        imageSet = try RouteImageSet(plan: plan, themes: options.themes, scales: options.scales)
        guard imageSet.requests.count <= options.maximumImages else {
            throw RenderError(
                "the route needs \(imageSet.requests.count) images (\(options.themes.count) themes × \(options.scales.count) scales), "
                    + "more than the limit of \(options.maximumImages) per run; draw fewer themes or scales")
        }
    }

    /// Writes the batch into `folder`, replacing what was there only once all of it is ready.
    /// `progress` hears (images done, images total) from any thread.
    public func write(to folder: String, progress: @escaping @Sendable (Int, Int) -> Void = { _, _ in }) throws(RenderError) -> Summary {
        let fingerprint = try RendererFingerprint.current(themes: options.themes, scales: options.scales)
        let reusable = Self.reusableImages(in: folder, fingerprint: fingerprint)

        AtomicDirectory.removeAbandonedStaging(for: folder)
        let staging = try AtomicDirectory.makeStaging(for: folder)
        do throws(RenderError) {
            let images = try BatchRenderer(workers: options.workers).render(
                imageSet.requests, into: staging,
                reusable: { request in
                    reusable[request.reuseKey].map {
                        BatchImage(request: request, fileName: $0.file, sha256: $0.sha256,
                                   width: $0.width, height: $0.height, anchor: $0.anchor, reused: true)
                    }
                },
                reusedFrom: folder,
                progress: progress
            )
            try writeMapData(plan: plan, images: images, fingerprint: fingerprint, into: staging)
            try AtomicDirectory.publish(staging, as: folder)
            let reused = images.filter(\.reused).count
            return Summary(stages: plan.stageLengths.count, markers: plan.markers.count, images: images.count,
                           rendered: images.count - reused, reused: reused, warnings: route.warnings)
        } catch {
            try? FileManager.default.removeItem(atPath: staging)
            throw error
        }
    }

    /// Images of an earlier run under the same renderer whose files still hash to what it recorded, by reuse key.
    static func reusableImages(in folder: String, fingerprint: String) -> [String: Manifest.Image] {
        guard let manifest = Manifest.read(in: folder), manifest.renderer == fingerprint else { return [:] }
        var reusable: [String: Manifest.Image] = [:]
        for image in manifest.images where !image.file.contains("/") {
            guard let bytes = FileManager.default.contents(atPath: folder + "/" + image.file),
                  ContentHash.sha256Hex([UInt8](bytes)) == image.sha256 else { continue }
            reusable[image.key] = image
        }
        return reusable
    }

    private func writeMapData(plan: MarkerPlan, images: [BatchImage], fingerprint: String, into folder: String) throws(RenderError) {
        // One sprite id per marker and theme, from its pictures at every scale.
        struct Picture: Hashable {
            let marker: Marker
            let theme: Theme
        }
        var shaByScale: [Picture: [Int: String]] = [:]
        for image in images {
            shaByScale[Picture(marker: image.request.marker, theme: image.request.theme), default: [:]][image.request.scale] = image.sha256
        }
        let spriteIDs = shaByScale.reduce(into: [Picture: SpriteID]()) { ids, entry in
            ids[entry.key] = SpriteID(marker: entry.key.marker, theme: entry.key.theme, sha256ByScale: entry.value)
        }
        func spriteID(_ marker: Marker, _ theme: Theme) -> SpriteID {
            spriteIDs[Picture(marker: marker, theme: theme)]!
        }

        var sprites: [Manifest.Sprite] = []
        if options.sprites {
            for theme in options.themes {
                for scale in options.scales {
                    var seen = Set<SpriteID>()
                    let entries = images.filter { $0.request.theme == theme && $0.request.scale == scale }.compactMap { image -> SpriteSheet.Entry? in
                        let id = spriteID(image.request.marker, theme)
                        guard seen.insert(id).inserted else { return nil }
                        return SpriteSheet.Entry(id: id, file: folder + "/" + image.fileName, width: image.width, height: image.height)
                    }
                    let sheet = try SpriteSheet(entries: entries, pixelRatio: scale)
                    let base = SpriteSheet.baseName(theme: theme, pixelRatio: scale)
                    try AtomicFile.write(sheet.png, to: folder, name: base + ".png")
                    try AtomicFile.write([UInt8](sheet.json), to: folder, name: base + ".json")
                    sprites.append(Manifest.Sprite(theme: theme.name, pixelRatio: scale, png: base + ".png", json: base + ".json"))
                }
            }
        }

        let geoJSON: Data
        do {
            geoJSON = try MarkersGeoJSON.document(plan: plan, themes: options.themes) { _, marker, theme in
                spriteID(marker, theme).value
            }
        } catch {
            throw RenderError("cannot write markers.geojson: \(error)")
        }
        try AtomicFile.write([UInt8](geoJSON), to: folder, name: "markers.geojson")

        for (index, theme) in options.themes.enumerated() {
            let layer: Data
            do { layer = try StyleLayer.json(theme: theme) } catch { throw RenderError("cannot write the style layer: \(error)") }
            try AtomicFile.write([UInt8](layer), to: folder, name: "style-layer-\(theme.name).json")
            if index == 0 { try AtomicFile.write([UInt8](layer), to: folder, name: "style-layer.json") }
        }

        let unitMetres = options.unit.metres
        let manifest = Manifest(
            renderer: fingerprint, unit: options.unit.rawValue, cumulative: options.cumulative,
            stages: plan.stageLengths.enumerated().map { index, metres in
                Manifest.Stage(stage: index + 1, name: route.stages[index].name,
                               length: metres / unitMetres, lengthMetres: metres)
            },
            images: images.map { image in
                Manifest.Image(
                    name: String(image.fileName.dropLast(4)), file: image.fileName,
                    sprite: spriteID(image.request.marker, image.request.theme).value,
                    kind: image.request.marker.kind.rawValue, label: image.request.marker.label,
                    theme: image.request.theme.name, scale: image.request.scale,
                    width: image.width, height: image.height, anchor: image.anchor, sha256: image.sha256,
                    key: image.request.reuseKey
                )
            },
            sprites: sprites
        )
        let manifestData: Data
        do { manifestData = try manifest.encoded() } catch { throw RenderError("cannot encode the manifest: \(error)") }
        // Last, so a manifest never names a file that is not there.
        try AtomicFile.write([UInt8](manifestData), to: folder, name: Manifest.fileName)
    }
}
