import Hummingbird
import MarkerMap
import MarkerQuery
import MarkerRender
import RouteModel
import RouteFormats
import RoutePlacement
import OfflineCorridor
import MarkerSpec

/// `POST /v1/routes`: a route (GeoJSON, GPX or encoded polyline) in; out, the batch's
/// `markers.geojson` with what a map app needs beside it, so it needs no batch step:
///
/// - each feature's `icon` (by theme) is an id whose hash covers the picture at every scale, so
///   `/v1/icons/<id>@2x.png` can be built from it and checked by any instance (`styleimagemissing`);
/// - `images`: for each id, its URL, `pixelRatio`, `width`, `height` and `anchor` at every scale;
/// - `sprite`: the sprite array, each sheet at `/v1/sprites/<spelling>-<hash>` (with `sprites=false`, none);
/// - `layers`: a symbol layer per theme, the first visible; `stages`: each stage's name and length;
/// - each feature's `minzoom` (and `zooms`): placed on the map so that no two pictures overlap at
///   any zoom, or with `zooms=table` the original app's zoom table; and `minzoomTurned`, from which
///   it meets none at any bearing (a course-up map);
///
/// Everything a request can cost is bounded before it is spent: at most `concurrency.maximum`
/// route requests at once (later ones wait their turn, and past `concurrency.maximumWaiting` get
/// `503`), the body's size, the markers (counted from the stage
/// lengths before any is placed), the images and the response. Parsing, placement, packing and
/// encoding run on the route threads, never on the threads that answer health checks and cached images.
struct RouteMarkersRoutes: Sendable {
    /// What one request may cost.
    struct Limits: Sendable {
        var bodyBytes: Int
        /// The markers, images and offline tiles one route may need, each counted before it is made.
        var preparing: PreparedRoute.Limits
        var responseBytes: Int
    }

    let work: RouteWork
    let sheets: SpriteSheets
    let limits: Limits

    func add(to router: Router<ServiceRequestContext>) {
        router.on(RouterPath(Endpoint.routes.path), method: Endpoint.routes.method) { request, context in
            try await markers(request, context)
        }
    }

    private func markers(_ request: Request, _ context: ServiceRequestContext) async throws -> Response {
        let options: RouteQuery
        do { options = try RouteQuery(request.uri.query) } catch { throw ServiceError(error) }
        return try await work.expensive(context.client) { permit in try await markers(request, options, permit: permit) }
    }

    private func markers(_ request: Request, _ query: RouteQuery, permit: ClientLimiter.Permit) async throws -> Response {
        let bytes = try await requestBody(request, limit: limits.bodyBytes, what: "the route")
        let prepared = try await prepare(bytes, query)
        let options = query.options
        let markers = prepared.distinctMarkers
        // The route costs its client every image it needs, drawn now or found cached.
        permit.charge(markers.count * options.themes.count * SpriteID.everyScale.count)
        let drawn = try await work.images.pictures(of: markers, themes: options.themes)
        // A route's waypoints: each pin and callout at every scale, charged as the markers are, drawn or found recorded.
        permit.charge(prepared.imageSet.pictures.count)
        let pictures = try await RoutePictures.draw(prepared.imageSet.pictures, on: work.pictures, records: work.pictureRecords, metrics: work.metrics)
        let (sprite, sheetList) = options.sprites ? try await spriteSheets(markers, options, drawn) : ([:], [])
        let members = Self.members(prepared, options, drawn, pictures, sheets: sheetList, base: work.publicBaseURL ?? "", urls: work.urls)
        let document = try await work.workers.run { () throws(ServiceError) -> [UInt8] in
            do {
                return try MarkersGeoJSON.document(
                    plan: prepared.plan, themes: options.themes,
                    icon: { (routeMarker, theme) throws(ServiceError) in
                        try Self.picture(drawn, routeMarker.marker, theme).id.value
                    },
                    sheet: options.sprites
                        ? { (routeMarker, theme) throws(ServiceError) in sprite[ThemedMarker(marker: routeMarker.marker, theme: theme)]?.id ?? "" }
                        : nil,
                    pin: { (routePin, theme) throws(ServiceError) in try pictures.images(of: routePin, theme: theme) },
                    members: members)
            } catch let error as ServiceError {
                throw error
            } catch {
                throw ServiceError(.internalServerError, "cannot encode the markers: \(error)")
            }
        }
        guard document.count <= limits.responseBytes else {
            throw ServiceError(
                .badRequest,
                "route: its markers make a \(document.count)-byte document, more than the "
                    + "\(limits.responseBytes) bytes this service sends (try fewer themes)", parameter: "body")
        }
        return Response(
            status: .ok,
            headers: [.contentType: "application/geo+json", .cacheControl: "no-store"],
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: document)))
    }

    /// Parses and places the route, and counts its images against the limit before any is drawn,
    /// as `markerpaint route` prepares one.
    private func prepare(_ bytes: [UInt8], _ query: RouteQuery) async throws(ServiceError) -> PreparedRoute {
        let limits = limits.preparing
        return try await work.workers.run { (renderer) throws(ServiceError) -> PreparedRoute in
            do throws(PreparedRoute.Refusal) {
                return try PreparedRoute(
                    parsing: bytes, format: query.format, options: query.options, scales: SpriteID.everyScale, limits: limits, renderer: renderer)
            } catch {
                switch error {
                case .route(let error):
                    throw ServiceError(.badRequest, "route: \(error.message)", parameter: "body")
                case .images(let needed, let limit):
                    throw ServiceError(
                        .badRequest,
                        "route: it needs \(needed) distinct images (every marker at 1x, @2x and @3x); "
                            + "this service draws at most \(limit) per request (try fewer themes or a coarser unit)",
                        parameter: "body")
                }
            }
        }
    }

    private static func picture(_ drawn: [ThemedMarker: DrawnPicture], _ marker: Marker, _ theme: Theme) throws(ServiceError) -> DrawnPicture {
        guard let picture = drawn[ThemedMarker(marker: marker, theme: theme)] else {
            throw ServiceError(.internalServerError, "no image drawn for \(marker.label) in \(theme.name)")
        }
        return picture
    }

    /// A sheet as the style's sprite array names it.
    private struct SheetEntry: Sendable {
        let id: String
        let name: String
    }

    /// Each theme's pictures on as few sheets as fit, drawn and named: for each picture its sheet,
    /// and the sheets in the order of the sprite array (theme by theme, `markerpaint-day`, `-2`, …).
    private func spriteSheets(
        _ markers: [Marker], _ options: RouteOptions, _ drawn: [ThemedMarker: DrawnPicture]
    ) async throws -> ([ThemedMarker: SheetEntry], [SheetEntry]) {
        let maximumPictures = sheets.maximumPictures
        let spellings = try await work.workers.run { () throws(ServiceError) -> [[SheetSpelling]] in
            do throws(MapError) {
                var spellings: [[SheetSpelling]] = []
                for theme in options.themes {
                    spellings.append(
                        try SheetSpelling.split(theme: theme, unit: options.unit, markers: markers, maximumPictures: maximumPictures) {
                            (chunk) throws(MapError) in
                            var pictures: [SpelledSprite.Picture] = []
                            for marker in chunk {
                                guard let picture = drawn[ThemedMarker(marker: marker, theme: theme)] else {
                                    throw MapError(.image, "no picture of \(marker.label)")
                                }
                                pictures.append(SpriteSheets.spritePicture(picture))
                            }
                            return SpelledSprite.fits(pictures)
                        })
                }
                return spellings
            } catch {
                throw ServiceError(.badRequest, "route: \(error.message)", parameter: "body")
            }
        }
        var entries: [ThemedMarker: SheetEntry] = [:]
        var list: [SheetEntry] = []
        for (theme, themeSpellings) in zip(options.themes, spellings) {
            for (index, spelling) in themeSpellings.enumerated() {
                var given: [Marker: DrawnPicture] = [:]
                for marker in spelling.markers { given[marker] = drawn[ThemedMarker(marker: marker, theme: theme)] }
                let sheet = try await sheets.sheet(spelling, pictures: given)
                let entry = SheetEntry(id: SpriteSheet.styleID(theme: theme, index: index), name: sheet.name)
                for marker in spelling.markers { entries[ThemedMarker(marker: marker, theme: theme)] = entry }
                list.append(entry)
            }
        }
        return (entries, list)
    }

    /// The document's members beside the features: `images` (the markers' and the pins' and
    /// callouts'), `sprite`, `layers` (the pins' and callouts' too, their images never on the
    /// sheets), `stages`, `unit`, `locale` (when one was asked for), `cumulative`.
    private static func members(
        _ prepared: PreparedRoute, _ options: RouteOptions, _ drawn: [ThemedMarker: DrawnPicture], _ pictures: RoutePictures, sheets: [SheetEntry],
        base: String, urls: ServiceURLs
    ) -> [String: JSONValue] {
        var images: [String: JSONValue] = [:]
        for picture in drawn.values {
            images[picture.id.value] = .array(
                picture.imageByScale.sorted { $0.key < $1.key }.compactMap { scale, image in
                    // The service draws icons at SpriteID.everyScale, all whole.
                    guard let ratio = scale.whole else { return nil }
                    let anchor = image.image.anchor
                    return [
                        "pixelRatio": .integer(ratio),
                        "url": .string(base + urls.icon(picture.id, ratio: ratio)),
                        "width": .integer(image.image.width),
                        "height": .integer(image.image.height),
                        "anchor": [.number(anchor.x), .number(anchor.y)],
                    ]
                })
        }
        images.merge(pictures.imageEntries(base: base, urls: urls)) { marker, _ in marker }
        let unitMetres = options.unit.metres
        let stages: [JSONValue] = prepared.plan.stageLengths.enumerated().map { index, metres in
            var stage: [String: JSONValue] = [
                "stage": .integer(index + 1), "length": .number(metres / unitMetres), "lengthMetres": .number(metres),
            ]
            if index < prepared.route.stages.count, let name = prepared.route.stages[index].name { stage["name"] = .string(name) }
            return .object(stage)
        }
        var members: [String: JSONValue] = [
            "images": .object(images),
            "sprite": .array(sheets.map { ["id": .string($0.id), "url": .string(base + urls.sprite($0.name))] }),
            "layers": .array(
                MapStyle.layers(
                    themes: options.themes, visibility: options.visibility, interval: options.interval, rotation: options.placement,
                    spriteIDs: options.sprites)
                    + (prepared.plan.pins.isEmpty
                        ? [] : MapStyle.pinLayers(themes: options.themes, visibility: options.visibility, rotation: options.placement, spriteIDs: false))),
            "stages": .array(stages),
            "unit": .string(options.unit.rawValue),
            "cumulative": .bool(options.cumulative),
        ]
        if options.locale != .standard { members["locale"] = .string(options.locale.identifier) }
        if options.countdown { members["countdown"] = .bool(true) }
        if options.interval != .one { members["interval"] = .number(options.interval.units) }
        if options.visibility != .fit { members["zooms"] = .string(options.visibility.rawValue) }
        if options.placement != .northUp { members["placement"] = .string(options.placement.rawValue) }
        if let pack = prepared.offline {
            var offline = OfflineFiles.summary(pack, listingTiles: false)
            offline["corridor"] = OfflineFiles.geometry(pack)
            // The tiles themselves: the same body and query posted there, answered gzip-compressed.
            offline["tiles"] = .string(base + Endpoint.offlineTiles.path)
            members["offline"] = offline
        }
        return members
    }
}
