import Hummingbird
import MarkerMap
import MarkerRender
import MarkerSpec
import Synchronization

/// The sprite sheets of routes, named by their spelling and hash (`SpelledSprite`): drawn when a
/// route asks for them, drawn again by any instance from the URL alone, kept in a bounded cache.
///
/// Identical sheets asked for at the same time share one drawing.
final class SpriteSheets: Sendable {
    /// One file of a sheet, ready to send.
    struct File: Sendable {
        let bytes: ByteBuffer
        let sha256: String
        let contentType: String
    }

    /// A drawn sheet: its name and its files by file name (`<name>@2x.png`, `<name>.json`, …).
    struct Drawn: Sendable {
        let name: String
        let files: [String: File]

        var cost: Int { files.values.reduce(CachedImage.entryOverhead) { $0 + $1.bytes.capacity } }
    }

    private struct State {
        var cache: ByteLimitedLRU<String, Drawn>
        var drawing: [SheetSpelling: Task<Result<Drawn, ServiceError>, Never>] = [:]
    }

    /// The most pictures one sheet may hold: the configured number, or fewer where one request may
    /// make the service draw fewer images (three scales each).
    let maximumPictures: Int
    private let images: MarkerImages
    private let workers: CPUPool<MarkerRenderer>
    private let state: Mutex<State>

    init(images: MarkerImages, workers: CPUPool<MarkerRenderer>, cacheBytes: Int, maximumPictures: Int) {
        self.images = images
        self.workers = workers
        self.maximumPictures = maximumPictures
        state = Mutex(State(cache: ByteLimitedLRU(capacity: cacheBytes)))
    }

    /// The sheet `spelling` names: cached, or drawn from `pictures` if given (a route has them
    /// already) or else from the images cache and the render pool.
    func sheet(_ spelling: SheetSpelling, pictures: [Marker: DrawnPicture] = [:]) async throws(ServiceError) -> Drawn {
        let (cached, task) = state.withLock { state -> (Drawn?, Task<Result<Drawn, ServiceError>, Never>?) in
            if let drawn = state.cache.value(for: spelling.description) { return (drawn, nil) }
            if let task = state.drawing[spelling] { return (nil, task) }
            let task = Task { await self.draw(spelling, pictures: pictures) }
            state.drawing[spelling] = task
            return (nil, task)
        }
        if let cached { return cached }
        guard let task else { throw ServiceError(.internalServerError, "no sheet for \(spelling)") }
        return try await task.value.get()
    }

    /// What the cache knows of a sheet file name.
    enum Lookup {
        /// The file, its sheet cached under the name's hash.
        case found(File)
        /// The name's spelling is cached under another hash, or the name is no sheet's: 404.
        case notFound
        /// The spelling is not cached: only drawing it can tell.
        case unknown
    }

    /// The file if its sheet is in the cache: no drawing, so no limit on how many ask at once. A
    /// wrong hash for a cached spelling is known without drawing again.
    func cachedFile(named fileName: String) -> Lookup {
        guard let (name, spelling) = Self.parts(of: fileName) else { return .notFound }
        return state.withLock { state in
            guard let drawn = state.cache.value(for: String(spelling)) else { return .unknown }
            guard drawn.name == name, let file = drawn.files[fileName] else { return .notFound }
            return .found(file)
        }
    }

    /// The file a sheet URL's last segment names, or nil if it does not parse or its hash is not
    /// that of what its spelling draws today.
    func file(named fileName: String) async throws(ServiceError) -> File? {
        switch cachedFile(named: fileName) {
        case .found(let file): return file
        case .notFound: return nil
        case .unknown: break
        }
        guard let (name, spelled) = Self.parts(of: fileName),
            let spelling = SheetSpelling(parsing: spelled, maximumPictures: maximumPictures)
        else { return nil }
        let drawn = try await sheet(spelling)
        return drawn.name == name ? drawn.files[fileName] : nil
    }

    /// How many pictures the sheet a file name spells holds (counted before any is made), or nil
    /// if the name is no sheet's.
    func pictureCount(named fileName: String) -> Int? {
        guard let (_, spelled) = Self.parts(of: fileName) else { return nil }
        return SheetSpelling(parsing: spelled, maximumPictures: maximumPictures)?.markers.count
    }

    /// A sheet file name's sheet name, `<spelling>-<hash>`, and its spelling; nil unless the hash is
    /// spelled as names carry it.
    static func parts(of fileName: String) -> (name: String, spelling: Substring)? {
        guard let name = SpriteSheet.parseFileName(fileName, pixelRatios: SpriteSheet.pixelRatios, extensions: ["png", "json"])?.name,
            let hashDash = name.lastIndex(of: "-"), ImageName.isHashPrefix(name[name.index(after: hashDash)...])
        else { return nil }
        return (String(name), name[..<hashDash])
    }

    private func draw(_ spelling: SheetSpelling, pictures given: [Marker: DrawnPicture]) async -> Result<Drawn, ServiceError> {
        let result: Result<Drawn, ServiceError>
        do {
            var pictures = given
            let images = images
            let missing = spelling.markers.filter { pictures[$0] == nil }
            for (marker, picture) in try await concurrently(
                missing, width: images.requestWidth,
                { marker in
                    (marker, try await images.picture(marker, theme: spelling.theme))
                })
            {
                pictures[marker] = picture
            }
            let spelled = try spelling.markers.map { marker in
                guard let picture = pictures[marker] else { throw ServiceError(.internalServerError, "no picture of \(marker.label)") }
                return Self.spritePicture(picture)
            }
            let sprite = try await workers.run { _ in try SpelledSprite(spelling: spelling, pictures: spelled) }
            var files: [String: File] = [:]
            for (ratio, sheet) in sprite.sheets {
                for (bytes, ending, type) in [(sheet.png, "png", "image/png"), (sheet.json, "json", "application/json")] {
                    files[SpriteSheet.fileName(sprite.name, pixelRatio: ratio, extension: ending)] = File(
                        bytes: ByteBuffer(bytes: bytes), sha256: ContentHash.sha256Hex(bytes), contentType: type)
                }
            }
            result = .success(Drawn(name: sprite.name, files: files))
        } catch let error as ServiceError {
            result = .failure(error)
        } catch is CPUPool<MarkerRenderer>.Refusal {
            result = .failure(RouteWorkers.busy)
        } catch {
            result = .failure(ServiceError(.internalServerError, "cannot draw the sprite sheet: \(error)"))
        }
        state.withLock { state in
            state.drawing[spelling] = nil
            if case .success(let drawn) = result { _ = state.cache.insert(drawn, for: spelling.description, cost: drawn.cost) }
        }
        return result
    }

    /// A drawn picture as a sheet takes it: its PNG and size at each ratio sheets are drawn at.
    static func spritePicture(_ picture: DrawnPicture) -> SpelledSprite.Picture {
        var images: [Int: SpelledSprite.Picture.Image] = [:]
        for ratio in SpriteSheet.pixelRatios {
            guard let image = picture.imageByScale[MarkerScale(integerLiteral: ratio)] else { continue }
            images[ratio] = SpelledSprite.Picture.Image(width: image.image.width, height: image.image.height) {
                Array(image.bytes.readableBytesView)
            }
        }
        return SpelledSprite.Picture(id: picture.id, imageByRatio: images)
    }
}
