import MarkerFiles
public import MarkerMap
public import MarkerRender
public import RouteModel
public import RoutePlacement
public import OfflineCorridor
public import MarkerSpec
public import MarkerPNG
public import SystemPackage

/// Everything a map needs for a route's markers, written into one folder in a single step.
public struct RouteBatch: Sendable {
    public struct Options: Sendable {
        /// What the user asks of the route's markers, as `POST /v1/routes` reads it too.
        public var route = RouteOptions()
        /// The scales each image is drawn at (sprites add the ratios map SDKs ask for).
        public var scales: [MarkerScale] = [1, 2]
        /// The largest side of a sprite sheet: 4096 px is what GPUs commonly load.
        public var spriteSide = SpriteSheet.maximumSide
        /// The most markers the route may need and the most distinct images one run may draw, each
        /// refused before anything is made.
        public var limits = PreparedRoute.Limits()
        /// Where the folder is served from, ending in `/`: `style.json`'s URLs start with it. Nil for
        /// the folder's own `file://` URL.
        public var baseURL: String? = nil
        /// How the marker PNGs are compressed: `PNGEncoder.defaultCompression`, or `smallCompression` for `--small`.
        public var compression = PNGEncoder.defaultCompression
        /// Bytes a tile weighs, by map zoom, for the pack's estimate (`OfflineFiles.defaultTileBytes` for the rest).
        public var offlineTileBytes: [Int: Int] = [:]
        /// Fetches the offline pack's tiles into one archive beside them, if asked (`--tiles-from`).
        public var offlineTiles: OfflineTilesJob? = nil
        /// The user's basemap style for a vector pack (`--pack-style`), its vector sources pointed at the pack.
        public var offlineBasemapStyle: JSONValue? = nil

        public init() {}
    }

    public struct Summary: Sendable {
        public var stages: Int
        public var markers: Int
        /// The route's waypoints, each a pin with a callout.
        public var pins: Int
        public var images: Int
        public var rendered: Int
        public var reused: Int
        public var warnings: [String]
        /// The offline pack's archive, when one was written.
        public var offlinePack: Manifest.OfflinePack? = nil
    }

    public let options: Options
    /// The route measured, planned, placed and counted, as the service prepares one.
    public let prepared: PreparedRoute

    public var route: Route { prepared.route }
    /// Where every marker goes and what it reads.
    public var plan: MarkerPlan { prepared.plan }
    /// Every distinct image the markers need.
    public var imageSet: RouteImageSet { prepared.imageSet }
    /// The corridor and tiles to ride the route offline, when the options ask for them.
    public var offline: OfflinePack? { prepared.offline }

    /// Plans the route's markers and images, refusing a route over the options' limits before
    /// anything is drawn: markers are counted from the stage lengths before any is made. `renderer`
    /// measures the pictures placed on the map (a renderer of the batch's pool, or one made here).
    public init(route: Route, options: Options, renderer: MarkerRenderer? = nil) throws(RouteError) {
        self.options = options
        let measuring: MarkerRenderer
        if let renderer {
            measuring = renderer
        } else {
            do throws(RenderError) { measuring = try MarkerRenderer() } catch { throw RouteError(error.message) }
        }
        // Sprites come at the ratios map SDKs request, so their pictures are drawn whatever `scales` says.
        let scales =
            options.route.sprites
            ? Array(Set(options.scales + SpriteSheet.pixelRatios.map(MarkerScale.init(integerLiteral:)))).sorted() : options.scales
        do {
            prepared = try PreparedRoute(route: route, options: options.route, scales: scales, limits: options.limits, renderer: measuring)
        } catch {
            switch error {
            case .route(let error): throw error
            case .images(let needed, let limit):
                throw RouteError(
                    "the route needs \(needed) images (\(options.route.themes.count) themes × \(scales.count) scales), "
                        + "more than the limit of \(limit) per run; draw fewer themes or scales")
            }
        }
    }

    /// Writes the batch into the folder at `path` with a pool of `threads` renderers: see
    /// `RouteOutput` for what it accepts and how it publishes. `progress` hears (images done, images total).
    public func write(
        to path: FilePath, threads: Int, progress: @escaping @Sendable (Int, Int) -> Void = { _, _ in }
    ) async throws(OutputError) -> Summary {
        let output = try RouteOutput(path)
        let pool = try await Self.renderers(threads: threads, compression: options.compression).get()
        defer { pool.shutdown() }
        return try await write(to: output, on: pool, progress: progress)
    }

    /// A pool of `threads` renderers encoding with `compression`, or why it could not start (e.g. the
    /// font is missing). A result rather than a throw, so a caller can start it early with `async let`.
    public static func renderers(threads: Int, compression: PNGEncoder.Compression) async -> Result<CPUPool<MarkerRenderer>, OutputError> {
        do {
            return .success(try await CPUPool.renderers(threads: threads, compression: compression))
        } catch {
            return .failure(OutputError(carrying: error))
        }
    }

    /// Writes the batch into a checked, locked output folder, drawing on `pool`.
    public func write(
        to output: RouteOutput, on pool: CPUPool<MarkerRenderer>, progress: @escaping @Sendable (Int, Int) -> Void = { _, _ in }
    ) async throws(OutputError) -> Summary {
        // The fingerprint decides reuse when an earlier run left a manifest; otherwise it is only
        // recorded, and is drawn on the pool beside the batch instead of before it.
        // Structured: if the run fails first, the drawing is cancelled and awaited as this call returns.
        async let fingerprinting = Self.fingerprints(on: pool, themes: options.route.themes, scales: imageSet.scales)
        let reusable = output.previous == nil ? [:] : output.reusableImages(renderers: try await fingerprinting.get())
        let staging = try output.makeStaging()
        do throws(OutputError) {
            let total = imageSet.count
            let markerCount = imageSet.requests.count
            let outcomes = try await BatchRenderer(pool: pool).render(
                imageSet.requests, into: staging,
                reusable: { request in reusable[request.reuseKey]?.image(of: request) },
                progress: { done, _ in progress(done, total) }
            )
            // Pins and callouts are drawn afresh each run: a route's few dozen cost less than checking them.
            let pictures = try await PictureBatch.draw(
                imageSet.pictures, into: staging, threads: pool.threadCount, compression: options.compression,
                progress: { done in progress(markerCount + done, total) })
            let fingerprints = try await fingerprinting.get()
            let reused = Set(outcomes.filter(\.reused).map(\.image.fileName))
            let manifest = try await MapFiles(
                batch: self, images: outcomes.map(\.image), pictures: pictures, fingerprints: fingerprints,
                baseURL: options.baseURL ?? FileURL.folder(output.path)
            )
            .write(into: staging) { image in reused.contains(image.fileName) ? output.folder : staging }
            try output.publish(staging, manifest: manifest)
            return Summary(
                stages: plan.stageLengths.count, markers: plan.markers.count, pins: plan.pins.count, images: outcomes.count + pictures.count,
                rendered: outcomes.count + pictures.count - reused.count, reused: reused.count, warnings: route.warnings + plan.warnings,
                offlinePack: manifest.offlinePack)
        } catch {
            output.discard(staging)
            throw error
        }
    }

    /// The renderer's fingerprint for each of `themes` at each of `scales`, drawn on one of the
    /// pool's threads, or why they could not be.
    private static func fingerprints(on pool: CPUPool<MarkerRenderer>, themes: [Theme], scales: [MarkerScale]) async -> Result<
        [String: String], OutputError
    > {
        do {
            return .success(
                try await pool.run { renderer in try RendererFingerprint.current(renderer: renderer, themes: themes, scales: scales) })
        } catch {
            return .failure(OutputError(carrying: error))
        }
    }
}
