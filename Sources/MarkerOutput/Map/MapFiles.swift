import MarkerFiles
import MarkerMap
import RouteModel
import OfflineCorridor
import MarkerSpec
import RoutePlacement
import MarkerArchive

/// The map data of a batch written beside its images: sprites, `markers.geojson`, the style and
/// its layers, and the manifest that records every file with its SHA-256.
struct MapFiles: Sendable {
    let batch: RouteBatch
    let images: [MarkerImage]
    /// The route's pins and callouts.
    let pictures: [DrawnPicture]
    /// The renderer's fingerprint for each theme and scale drawn.
    let fingerprints: [String: String]
    /// Where the folder is served from, ending in `/`, for the style's URLs.
    let baseURL: String

    /// One sprite id per marker and theme, from its pictures at every scale.
    private let spriteIDs: [Picture: SpriteID]

    private struct Picture: Hashable, Sendable {
        let marker: Marker
        let theme: Theme
    }

    /// One sprite id per pin or callout and theme, from its pictures at every scale.
    private let pictureIDs: [ThemedPicture: SpriteID]

    private struct ThemedPicture: Hashable, Sendable {
        let picture: MapPicture
        let theme: Theme
    }

    /// An image as a sprite sheet takes it.
    private struct SpriteSource {
        let id: SpriteID
        let scale: MarkerScale
        let fileName: String
        let width: Int
        let height: Int
        /// Reused marker images are still in the output folder.
        let marker: MarkerImage?
    }

    init(batch: RouteBatch, images: [MarkerImage], pictures: [DrawnPicture], fingerprints: [String: String], baseURL: String) {
        self.batch = batch
        self.images = images
        self.pictures = pictures
        var pictureSHAs: [ThemedPicture: [MarkerScale: String]] = [:]
        for drawn in pictures {
            pictureSHAs[ThemedPicture(picture: drawn.request.picture, theme: drawn.request.theme), default: [:]][drawn.request.scale] = drawn.image.sha256
        }
        pictureIDs = pictureSHAs.reduce(into: [:]) { ids, entry in
            ids[entry.key] = SpriteID(picture: entry.key.picture, theme: entry.key.theme, sha256ByScale: entry.value)
        }
        self.fingerprints = fingerprints
        self.baseURL = baseURL
        var shaByScale: [Picture: [MarkerScale: String]] = [:]
        shaByScale.reserveCapacity(images.count)
        for image in images {
            shaByScale[Picture(marker: image.request.marker, theme: image.request.theme), default: [:]][image.request.scale] = image.sha256
        }
        var ids: [Picture: SpriteID] = [:]
        ids.reserveCapacity(shaByScale.count)
        for (picture, sha256ByScale) in shaByScale {
            ids[picture] = SpriteID(marker: picture.marker, theme: picture.theme, sha256ByScale: sha256ByScale)
        }
        spriteIDs = ids
    }

    private func spriteID(_ marker: Marker, _ theme: Theme) throws(OutputError) -> SpriteID {
        guard let id = spriteIDs[Picture(marker: marker, theme: theme)] else {
            throw OutputError("no image was drawn for \(marker.kind.rawValue) \(marker.label) in \(theme.name)")
        }
        return id
    }

    private func pictureID(_ picture: MapPicture, _ theme: Theme) throws(OutputError) -> SpriteID {
        guard let id = pictureIDs[ThemedPicture(picture: picture, theme: theme)] else {
            throw OutputError("no image was drawn for \(picture.label) in \(theme.name)")
        }
        return id
    }

    /// Writes the map data into `staging` and returns the batch's manifest; `folderOf` says where
    /// each image's PNG is (reused ones are still in the output folder).
    ///
    /// The two large documents, markers.geojson and the preview page, are built beside each other
    /// and the rest: after the drawing, a batch's last single-threaded stretch is mostly these.
    func write(into staging: Folder, folderOf: @escaping @Sendable (MarkerImage) -> Folder) async throws(OutputError) -> Manifest {
        var files: [String: String] = [:]
        for image in images { files[image.fileName] = image.sha256 }
        for drawn in pictures { files[drawn.image.fileName] = drawn.image.sha256 }
        func write(_ bytes: [UInt8], _ name: String) throws(OutputError) {
            do { try staging.writeNew(bytes, as: name) } catch { throw OutputError(error.message) }
            files[name] = ContentHash.sha256Hex(bytes)
        }
        let options = batch.options.route

        var sprites: [Manifest.Sprite] = []
        var sheetOf: [SpriteID: String] = [:]
        if options.sprites {
            // Each theme's sheets on a thread of their own: packing, decoding and encoding are the
            // longest single-threaded stretch of a batch.
            let drawn = try await Self.concurrently(options.themes) { (theme) throws(OutputError) in
                try drawSprites(of: theme, staging: staging, folderOf: folderOf)
            }
            for (written, ids, files) in drawn {
                for (bytes, name) in files { try write(bytes, name) }
                sprites += written
                sheetOf.merge(ids) { first, _ in first }
            }
        }

        async let geoJSON = Result { [sheetOf] () throws(OutputError) in try markersGeoJSON(sheetOf: sheetOf) }
        // With tiles to fetch, the page names the pack, so it is written once the pack is.
        let pageAfterPack = batch.options.offlineTiles != nil && batch.offline != nil
        async let page = Result { () throws(OutputError) in pageAfterPack ? [] : try previewPage(basemap: nil) }

        for (index, theme) in options.themes.enumerated() {
            let layer = try Self.mapData { () throws(MapError) in
                try StyleLayer.json(theme: theme, visibility: batch.plan.visibility, interval: batch.plan.interval, rotation: options.placement)
            }
            try write(layer, "style-layer-\(theme.name).json")
            if index == 0 { try write(layer, "style-layer.json") }
        }
        var sheets: [MapStyle.Sheet] = []
        if options.sprites {
            for sprite in sprites {
                guard let id = sprite.id, let name = sprite.name else { continue }
                let sheet = MapStyle.Sheet(id: id, name: name)
                if !sheets.contains(sheet) { sheets.append(sheet) }
            }
            let style = try Self.mapData { () throws(MapError) in
                try MapStyle.json(
                    themes: options.themes, visibility: batch.plan.visibility, interval: options.interval, rotation: options.placement,
                    pins: !batch.plan.pins.isEmpty, sheets: sheets, baseURL: baseURL)
            }
            try write(style, MapStyle.fileName)
        }

        var rows: [Manifest.Image] = []
        rows.reserveCapacity(images.count)
        for image in images {
            rows.append(Manifest.Image(image, sprite: try spriteID(image.request.marker, image.request.theme)))
        }
        try write(try await geoJSON.get(), "markers.geojson")
        let pageBytes = try await page.get()
        if !pageAfterPack { try write(pageBytes, PreviewPage.fileName) }
        var offlinePack: Manifest.OfflinePack? = nil
        if let pack = batch.offline {
            // In a subfolder of its own, recorded in the manifest as `offline/<name>`.
            let corridor = try Self.document { try OfflineFiles.corridor(pack) }
            let tiles = try Self.document { try OfflineFiles.tiles(pack, tileBytes: batch.options.offlineTileBytes) }
            let folder: Folder
            do {
                folder = try staging.makeSubfolder(OfflineFiles.folder)
                for (bytes, name) in [(corridor, OfflineFiles.corridorName), (tiles, OfflineFiles.tilesName)] {
                    try folder.writeNew(bytes, as: name)
                    files["\(OfflineFiles.folder)/\(name)"] = ContentHash.sha256Hex(bytes)
                }
            } catch {
                throw OutputError(error.message)
            }
            if let job = batch.options.offlineTiles {
                let written: OfflineTilesJob.Written
                do {
                    written = try await job.run(tileList: folder.path(of: OfflineFiles.tilesName), into: folder.path)
                } catch {
                    throw OutputError(error.message)
                }
                files["\(OfflineFiles.folder)/\(written.name)"] = written.sha256
                offlinePack = Manifest.OfflinePack(
                    file: "\(OfflineFiles.folder)/\(written.name)", bytes: written.bytes, sha256: written.sha256, format: written.format,
                    tileType: written.tileType, tiles: written.tiles, absent: written.absent)
                let style = try Self.mapData { () throws(MapError) in
                    try OfflineStyle.style(
                        markers: MapStyle.style(
                            themes: options.themes, visibility: batch.plan.visibility, interval: options.interval, rotation: options.placement,
                            pins: !batch.plan.pins.isEmpty, sheets: sheets, baseURL: baseURL),
                        baseURL: baseURL, route: batch.route,
                        basemap: OfflineStyle.Basemap(
                            fileName: written.name, format: written.format, isRaster: written.isRaster, tileSize: written.tileSize,
                            attribution: written.attribution, minimumZoom: written.minimumZoom, maximumZoom: written.maximumZoom),
                        basemapStyle: batch.options.offlineBasemapStyle
                    ).styleBytes()
                }
                do { try folder.writeNew(style, as: OfflineStyle.fileName) } catch { throw OutputError(error.message) }
                files["\(OfflineFiles.folder)/\(OfflineStyle.fileName)"] = ContentHash.sha256Hex(style)
                try write(
                    try previewPage(
                        basemap: PreviewPage.Basemap(
                            file: "\(OfflineFiles.folder)/\(written.name)", format: written.format, isRaster: written.isRaster)),
                    PreviewPage.fileName)
            }
        }
        let unitMetres = options.unit.metres
        return Manifest(
            renderer: RendererFingerprint.combined(fingerprints), renderers: fingerprints, unit: options.unit.rawValue,
            locale: options.locale == .standard ? nil : options.locale.identifier,
            interval: options.interval == .one ? nil : options.interval.units,
            countdown: options.countdown ? true : nil,
            zooms: options.visibility == .fit ? nil : options.visibility.rawValue,
            cumulative: options.cumulative,
            stages: batch.plan.stageLengths.enumerated().map { index, metres in
                Manifest.Stage(stage: index + 1, name: batch.route.stages[index].name, length: metres / unitMetres, lengthMetres: metres)
            },
            images: rows,
            pictures: pictures.isEmpty ? nil : try pictures.map { (drawn) throws(OutputError) in
                Manifest.Picture(drawn, sprite: try pictureID(drawn.request.picture, drawn.request.theme))
            },
            sprites: sprites,
            files: files,
            offlinePack: offlinePack
        )
    }

    /// markers.geojson: every marker with its icon id per theme and, with sprites, its sheet.
    private func markersGeoJSON(sheetOf: [SpriteID: String]) throws(OutputError) -> [UInt8] {
        let options = batch.options.route
        return try Self.document {
            try MarkersGeoJSON.document(
                plan: batch.plan, themes: options.themes,
                icon: { (routeMarker, theme) throws(OutputError) in try spriteID(routeMarker.marker, theme).value },
                sheet: options.sprites
                    ? { (routeMarker, theme) throws(OutputError) in sheetOf[try spriteID(routeMarker.marker, theme)] ?? "" } : nil,
                pin: { (routePin, theme) throws(OutputError) in
                    let icon = try pictureID(.pin(routePin.pin), theme)
                    let callout = try pictureID(.callout(routePin.callout), theme)
                    return MarkersGeoJSON.PinImages(
                        icon: icon.value, callout: callout.value, iconSheet: options.sprites ? sheetOf[icon] ?? "" : nil,
                        calloutSheet: options.sprites ? sheetOf[callout] ?? "" : nil)
                }
            )
        }
    }

    /// The preview page, with the pictures it shows.
    private func previewPage(basemap: PreviewPage.Basemap?) throws(OutputError) -> [UInt8] {
        let options = batch.options.route
        // The page needs 1x and @2x; only a run that drew neither gives it what it drew.
        let drewSmall = batch.imageSet.scales.contains { $0 <= 2 }
        var pictures: [String: [MarkerScale: PreviewPage.Picture]] = [:]
        for image in images where image.request.scale <= 2 || !drewSmall {
            let id = try spriteID(image.request.marker, image.request.theme).value
            pictures[id, default: [:]][image.request.scale] = PreviewPage.Picture(
                file: image.fileName, scale: image.request.scale, width: image.width, height: image.height, anchor: image.anchor)
        }
        for drawn in self.pictures where drawn.request.scale <= 2 || !drewSmall {
            let id = try pictureID(drawn.request.picture, drawn.request.theme).value
            pictures[id, default: [:]][drawn.request.scale] = PreviewPage.Picture(
                file: drawn.image.fileName, scale: drawn.request.scale, width: drawn.image.width, height: drawn.image.height,
                anchor: drawn.image.anchor)
        }
        return try Self.document {
            try PreviewPage.html(
                route: batch.route, plan: batch.plan, themes: options.themes, unit: options.unit, mark: options.locale.decimalMark,
                icon: { (routeMarker, theme) throws(OutputError) in try spriteID(routeMarker.marker, theme).value },
                pin: { (routePin, theme) throws(OutputError) in
                    (try pictureID(.pin(routePin.pin), theme).value, try pictureID(.callout(routePin.callout), theme).value)
                },
                pictures: pictures,
                offline: batch.offline, basemap: basemap)
        }
    }

    /// Packs a theme's pictures on as many sheets as they need, each at every ratio map SDKs
    /// request, and writes them under names hashed from their contents; returns the sheets and, for
    /// each picture, the style id of the sheet that holds it.
    private func drawSprites(
        of theme: Theme, staging: Folder, folderOf: (MarkerImage) -> Folder
    ) throws(OutputError) -> ([Manifest.Sprite], [SpriteID: String], [([UInt8], String)]) {
        var filesToWrite: [([UInt8], String)] = []
        var sources: [SpriteSource] = []
        for image in images where image.request.theme == theme {
            sources.append(
                SpriteSource(
                    id: try spriteID(image.request.marker, theme), scale: image.request.scale, fileName: image.fileName, width: image.width,
                    height: image.height, marker: image))
        }
        for drawn in pictures where drawn.request.theme == theme {
            sources.append(
                SpriteSource(
                    id: try pictureID(drawn.request.picture, theme), scale: drawn.request.scale, fileName: drawn.image.fileName,
                    width: drawn.image.width, height: drawn.image.height, marker: nil))
        }
        var itemsByRatio: [Int: [SpritePacker.Item]] = [:]
        var imageOf: [Int: [SpriteID: SpriteSource]] = [:]
        for source in sources {
            guard let ratio = source.scale.whole, SpriteSheet.pixelRatios.contains(ratio) else { continue }
            guard imageOf[ratio, default: [:]][source.id] == nil else { continue }
            imageOf[ratio, default: [:]][source.id] = source
            itemsByRatio[ratio, default: []].append(SpritePacker.Item(id: source.id, width: source.width, height: source.height))
        }
        let packed = try Self.mapData { () throws(MapError) in try SpritePacker.pack(itemsByRatio, maximumSide: batch.options.spriteSide) }
        var sprites: [Manifest.Sprite] = []
        var sheetOf: [SpriteID: String] = [:]
        for (index, sheets) in packed.enumerated() {
            let styleID = SpriteSheet.styleID(theme: theme, index: index)
            var drawn: [(ratio: Int, sheet: SpritePacker.Sheet, files: SpriteSheet)] = []
            for ratio in SpriteSheet.pixelRatios {
                guard let sheet = sheets[ratio], let pictures = imageOf[ratio] else { continue }
                let files = try Self.mapData { () throws(MapError) in
                    try SpriteSheet(sheet: sheet, pixelRatio: ratio) { (id) throws(MapError) in
                        guard let source = pictures[id] else { throw MapError(.image, "no \(ratio)x picture of \(id)") }
                        return try Self.png(of: source.fileName, in: source.marker.map(folderOf) ?? staging)
                    }
                }
                drawn.append((ratio, sheet, files))
            }
            let name = SpriteSheet.name(theme: theme, files: drawn.map { ($0.files.png, $0.files.json) })
            for (ratio, sheet, files) in drawn {
                let png = SpriteSheet.fileName(name, pixelRatio: ratio, extension: "png")
                let json = SpriteSheet.fileName(name, pixelRatio: ratio, extension: "json")
                for file in [(files.png, png), (files.json, json)] { filesToWrite.append(file) }
                sprites.append(
                    Manifest.Sprite(
                        theme: theme.name, pixelRatio: ratio, png: png, json: json, id: styleID, name: name,
                        images: sheet.slots.count, fill: (sheet.fill * 1000).rounded() / 1000))
            }
            for slot in sheets.values.first?.slots ?? [] { sheetOf[slot.item.id] = styleID }
        }
        return (sprites, sheetOf, filesToWrite)
    }

    /// `work` on each of `items` at once, one task each, the results in `items`' order.
    private static func concurrently<Item: Sendable, Value: Sendable>(
        _ items: [Item], _ work: @escaping @Sendable (Item) throws(OutputError) -> Value
    ) async throws(OutputError) -> [Value] {
        do {
            return try await withThrowingTaskGroup(of: (Int, Value).self) { group in
                for (index, item) in items.enumerated() { group.addTask { (index, try work(item)) } }
                var results: [Int: Value] = [:]
                for try await (index, value) in group { results[index] = value }
                return items.indices.compactMap { results[$0] }
            }
        } catch let error as OutputError {
            throw error
        } catch {
            throw OutputError(carrying: error)
        }
    }

    /// What a map-data step makes, its failure as an output error that keeps the map error's reason.
    private static func mapData<Value>(_ make: () throws(MapError) -> Value) throws(OutputError) -> Value {
        do { return try make() } catch { throw OutputError(error.message, mapError: error) }
    }

    /// A document whose builder calls back into this batch: its own errors pass as they are, the
    /// document's own (`MapError`) as `mapData` turns them.
    private static func document(_ make: () throws -> [UInt8]) throws(OutputError) -> [UInt8] {
        do { return try make() } catch { throw OutputError(carrying: error) }
    }

    /// The PNG `fileName`, read back from the folder it was written to.
    private static func png(of fileName: String, in folder: Folder) throws(MapError) -> [UInt8] {
        do {
            guard let bytes = try folder.contents(of: fileName, limit: RouteOutput.maximumOwnFileBytes) else {
                throw MapError(.image, "\(folder.path(of: fileName)) is missing; it was to go into the sprite")
            }
            return bytes
        } catch let error as MapError {
            throw error
        } catch {
            throw MapError(.image, "cannot read an image for the sprite: \(error)")
        }
    }
}
