import Foundation
import MarkerFiles
import SystemPackage
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

    /// Writes the batch into the folder at `path`: see `RouteOutput` for what it accepts and how
    /// it publishes. `progress` hears (images done, images total) from any thread.
    public func write(to path: FilePath, progress: @escaping @Sendable (Int, Int) -> Void = { _, _ in }) throws(RenderError) -> Summary {
        try write(to: RouteOutput(path), progress: progress)
    }

    /// Writes the batch into a checked, locked output folder.
    public func write(to output: RouteOutput, progress: @escaping @Sendable (Int, Int) -> Void = { _, _ in }) throws(RenderError) -> Summary {
        let fingerprint = try RendererFingerprint.current(themes: options.themes, scales: options.scales)
        let reusable = output.reusableImages(renderer: fingerprint)
        let staging = try output.makeStaging()
        do throws(RenderError) {
            let images = try BatchRenderer(workers: options.workers).render(
                imageSet.requests, into: staging,
                reusable: { request in
                    reusable[request.reuseKey].map {
                        BatchImage(request: request, fileName: $0.file, sha256: $0.sha256,
                                   width: $0.width, height: $0.height, anchor: $0.anchor, reused: true)
                    }
                },
                progress: progress
            )
            let manifest = try writeMapData(images: images, fingerprint: fingerprint, staging: staging, output: output.folder)
            try output.publish(staging, manifest: manifest)
            let reused = images.filter(\.reused).count
            return Summary(stages: plan.stageLengths.count, markers: plan.markers.count, images: images.count,
                           rendered: images.count - reused, reused: reused, warnings: route.warnings)
        } catch {
            output.discard(staging)
            throw error
        }
    }

    /// Writes sprites, markers.geojson and the style layers into `staging` and returns the manifest
    /// of the whole batch, recording every file with its SHA-256. Reused images are read from `output`.
    private func writeMapData(images: [BatchImage], fingerprint: String, staging: Folder, output: Folder) throws(RenderError) -> Manifest {
        var files: [String: String] = [:]
        for image in images { files[image.fileName] = image.sha256 }
        func write(_ bytes: [UInt8], as name: String) throws(RenderError) {
            do { try staging.writeNew(bytes, as: name) } catch { throw RenderError(error.message) }
            files[name] = ContentHash.sha256Hex(bytes)
        }

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
        func spriteID(_ marker: Marker, _ theme: Theme) throws(RenderError) -> SpriteID {
            guard let id = spriteIDs[Picture(marker: marker, theme: theme)] else {
                throw RenderError("no image was drawn for \(marker.kind.rawValue) \(marker.label) in \(theme.name)")
            }
            return id
        }

        var sprites: [Manifest.Sprite] = []
        if options.sprites {
            for theme in options.themes {
                for scale in options.scales {
                    var seen = Set<SpriteID>()
                    var entries: [SpriteSheet.Entry] = []
                    for image in images where image.request.theme == theme && image.request.scale == scale {
                        let id = try spriteID(image.request.marker, theme)
                        guard seen.insert(id).inserted else { continue }
                        entries.append(SpriteSheet.Entry(id: id, folder: image.reused ? output : staging, file: image.fileName,
                                                         width: image.width, height: image.height))
                    }
                    let sheet = try SpriteSheet(entries: entries, pixelRatio: scale)
                    let base = SpriteSheet.baseName(theme: theme, pixelRatio: scale)
                    try write(sheet.png, as: base + ".png")
                    try write(Array(sheet.json), as: base + ".json")
                    sprites.append(Manifest.Sprite(theme: theme.name, pixelRatio: scale, png: base + ".png", json: base + ".json"))
                }
            }
        }

        let geoJSON: Data
        do {
            geoJSON = try MarkersGeoJSON.document(plan: plan, themes: options.themes) { _, marker, theme in
                try spriteID(marker, theme).value
            }
        } catch {
            throw RenderError("cannot write markers.geojson: \(error)")
        }
        try write(Array(geoJSON), as: "markers.geojson")

        for (index, theme) in options.themes.enumerated() {
            let layer: Data
            do { layer = try StyleLayer.json(theme: theme) } catch { throw RenderError("cannot write the style layer: \(error)") }
            try write(Array(layer), as: "style-layer-\(theme.name).json")
            if index == 0 { try write(Array(layer), as: "style-layer.json") }
        }

        let unitMetres = options.unit.metres
        var manifestImages: [Manifest.Image] = []
        for image in images {
            manifestImages.append(Manifest.Image(
                name: String(image.fileName.dropLast(4)), file: image.fileName,
                sprite: try spriteID(image.request.marker, image.request.theme).value,
                kind: image.request.marker.kind.rawValue, label: image.request.marker.label,
                theme: image.request.theme.name, scale: image.request.scale,
                width: image.width, height: image.height, anchor: image.anchor, sha256: image.sha256,
                key: image.request.reuseKey
            ))
        }
        return Manifest(
            renderer: fingerprint, unit: options.unit.rawValue, cumulative: options.cumulative,
            stages: plan.stageLengths.enumerated().map { index, metres in
                Manifest.Stage(stage: index + 1, name: route.stages[index].name,
                               length: metres / unitMetres, lengthMetres: metres)
            },
            images: manifestImages,
            sprites: sprites,
            files: files
        )
    }
}
