import MarkerFiles
import MarkerMap
import MarkerRoute
import MarkerSpec

/// The map data of a batch written beside its images: sprites, `markers.geojson`, the style layers,
/// and the manifest that records every file with its SHA-256.
struct MapFiles {
    let batch: RouteBatch
    let images: [MarkerImage]
    let fingerprint: String

    /// One sprite id per marker and theme, from its pictures at every scale.
    private let spriteIDs: [Picture: SpriteID]

    private struct Picture: Hashable {
        let marker: Marker
        let theme: Theme
    }

    init(batch: RouteBatch, images: [MarkerImage], fingerprint: String) {
        self.batch = batch
        self.images = images
        self.fingerprint = fingerprint
        var shaByScale: [Picture: [Int: String]] = [:]
        for image in images {
            shaByScale[Picture(marker: image.request.marker, theme: image.request.theme), default: [:]][image.request.scale] = image.sha256
        }
        spriteIDs = shaByScale.reduce(into: [:]) { ids, entry in
            ids[entry.key] = SpriteID(marker: entry.key.marker, theme: entry.key.theme, sha256ByScale: entry.value)
        }
    }

    private func spriteID(_ marker: Marker, _ theme: Theme) throws(OutputError) -> SpriteID {
        guard let id = spriteIDs[Picture(marker: marker, theme: theme)] else {
            throw OutputError("no image was drawn for \(marker.kind.rawValue) \(marker.label) in \(theme.name)")
        }
        return id
    }

    /// Writes the map data into `staging` and returns the batch's manifest; `folderOf` says where
    /// each image's PNG is (reused ones are still in the output folder).
    func write(into staging: Folder, folderOf: (MarkerImage) -> Folder) throws(OutputError) -> Manifest {
        var files: [String: String] = [:]
        for image in images { files[image.fileName] = image.sha256 }
        func write(_ bytes: [UInt8], as name: String) throws(OutputError) {
            do { try staging.writeNew(bytes, as: name) } catch { throw OutputError(error.message) }
            files[name] = ContentHash.sha256Hex(bytes)
        }
        func mapData<Value>(_ make: () throws(MapError) -> Value) throws(OutputError) -> Value {
            do { return try make() } catch { throw OutputError(error.message, mapError: error) }
        }
        let options = batch.options

        var sprites: [Manifest.Sprite] = []
        if options.sprites {
            for theme in options.themes {
                for scale in options.scales {
                    var seen = Set<SpriteID>()
                    var entries: [SpriteSheet.Entry] = []
                    for image in images where image.request.theme == theme && image.request.scale == scale {
                        let id = try spriteID(image.request.marker, theme)
                        guard seen.insert(id).inserted else { continue }
                        let (folder, file) = (folderOf(image), image.fileName)
                        entries.append(
                            SpriteSheet.Entry(id: id, width: image.width, height: image.height) { () throws(MapError) in
                                do {
                                    guard let bytes = try folder.contents(of: file, limit: RouteOutput.maximumOwnFileBytes) else {
                                        throw MapError(.image, "\(folder.path(of: file)) is missing; it was to go into the sprite")
                                    }
                                    return bytes
                                } catch let error as MapError {
                                    throw error
                                } catch {
                                    throw MapError(.image, "cannot read an image for the sprite: \(error)")
                                }
                            })
                    }
                    let sheet = try mapData { () throws(MapError) in try SpriteSheet(entries: entries, pixelRatio: scale) }
                    let base = SpriteSheet.baseName(theme: theme, pixelRatio: scale)
                    try write(sheet.png, as: base + ".png")
                    try write(sheet.json, as: base + ".json")
                    sprites.append(Manifest.Sprite(theme: theme.name, pixelRatio: scale, png: base + ".png", json: base + ".json"))
                }
            }
        }

        let geoJSON: [UInt8]
        do {
            geoJSON = try MarkersGeoJSON.document(plan: batch.plan, themes: options.themes) { (routeMarker, theme) throws(OutputError) in
                try spriteID(routeMarker.marker, theme).value
            }
        } catch let error as OutputError {
            throw error
        } catch {
            throw OutputError("\(error)")
        }
        try write(geoJSON, as: "markers.geojson")

        for (index, theme) in options.themes.enumerated() {
            let layer = try mapData { () throws(MapError) in try StyleLayer.json(theme: theme) }
            try write(layer, as: "style-layer-\(theme.name).json")
            if index == 0 { try write(layer, as: "style-layer.json") }
        }

        var rows: [Manifest.Image] = []
        for image in images {
            rows.append(Manifest.Image(image, sprite: try spriteID(image.request.marker, image.request.theme)))
        }
        let unitMetres = options.unit.metres
        return Manifest(
            renderer: fingerprint, unit: options.unit.rawValue, cumulative: options.cumulative,
            stages: batch.plan.stageLengths.enumerated().map { index, metres in
                Manifest.Stage(stage: index + 1, name: batch.route.stages[index].name, length: metres / unitMetres, lengthMetres: metres)
            },
            images: rows,
            sprites: sprites,
            files: files
        )
    }
}
