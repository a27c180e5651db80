import MarkerMap
import MarkerRender
import MarkerSpec

/// A picture at every scale the service draws, under the id that hashes them all.
struct DrawnPicture: Sendable {
    let id: SpriteID
    let imageByScale: [MarkerScale: CachedImage]
}

/// One marker in one theme: what a route or progress request draws at every scale.
struct ThemedMarker: Hashable, Sendable {
    let marker: Marker
    let theme: Theme
}

extension MarkerImages {
    /// `marker` in `theme` at every scale of `SpriteID.everyScale`, drawn at once (or found cached).
    func picture(_ marker: Marker, theme: Theme) async throws(RenderError) -> DrawnPicture {
        let requests: [MarkerRequest]
        do {
            requests = try SpriteID.everyScale.map { scale throws(SpecError) in try MarkerRequest(marker: marker, theme: theme, scale: scale) }
        } catch {
            throw RenderError(error.description)
        }
        var imageByScale: [MarkerScale: CachedImage] = [:]
        do {
            try await withThrowingTaskGroup(of: (MarkerScale, CachedImage).self) { group in
                for request in requests {
                    group.addTask { (request.scale, try await self.image(for: request)) }
                }
                for try await (scale, image) in group { imageByScale[scale] = image }
            }
        } catch let error as RenderError {
            throw error
        } catch {
            throw RenderError("\(error)")
        }
        let id = SpriteID(marker: marker, theme: theme, sha256ByScale: imageByScale.mapValues(\.image.sha256))
        return DrawnPicture(id: id, imageByScale: imageByScale)
    }

    /// Each of `markers` in each of `themes` at every scale, drawn (or found in the cache) as many
    /// at once as half the render threads, so one request never holds them all.
    func pictures(of markers: [Marker], themes: [Theme]) async throws -> [ThemedMarker: DrawnPicture] {
        let wanted = themes.flatMap { theme in markers.map { ThemedMarker(marker: $0, theme: theme) } }
        let drawn = try await concurrently(wanted, width: requestWidth) { picture in
            (picture, try await self.picture(picture.marker, theme: picture.theme))
        }
        return Dictionary(drawn, uniquingKeysWith: { first, _ in first })
    }

    /// The image an icon URL's file names, `<id>.png`, `<id>@2x.png` or `<id>@3x.png`, or nil if it
    /// does not parse or the id's hash is not that of what it shows today. Any instance can answer:
    /// it draws the picture at every scale and hashes them as the id did.
    func icon(named fileName: String) async throws(RenderError) -> CachedImage? {
        guard let (id, scale) = Self.iconFile(fileName), let (marker, theme) = SpriteID.parse(id) else { return nil }
        let picture = try await picture(marker, theme: theme)
        guard picture.id.value == id else { return nil }
        return picture.imageByScale[scale]
    }

    /// Whether every scale of the picture an icon file name stands for is cached (true for a name
    /// that does not parse, which costs nothing to refuse).
    func iconIsCached(named fileName: String) -> Bool {
        guard let (id, _) = Self.iconFile(fileName), let (marker, theme) = SpriteID.parse(id) else { return true }
        return SpriteID.everyScale.allSatisfy { scale in
            (try? MarkerRequest(marker: marker, theme: theme, scale: scale)).map { isCached($0) } ?? true
        }
    }

    /// An icon URL's file name as its id and scale, spelled as sheets are: one file name per image (no `@1x`).
    static func iconFile(_ fileName: String) -> (id: Substring, scale: MarkerScale)? {
        SpriteSheet.parseFileName(fileName, pixelRatios: SpriteID.everyScale.compactMap(\.whole), extensions: ["png"]).map {
            ($0.name, MarkerScale(integerLiteral: $0.pixelRatio))
        }
    }

}
