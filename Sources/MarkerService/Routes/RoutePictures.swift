import Hummingbird
import MarkerMap
import MarkerPins
import MarkerQuery
import MarkerRender
import MarkerSpec
import Metrics
import RoutePlacement

/// A route document's pins and callouts: each drawn at every scale the service's ids hash, named
/// by a `SpriteID` of those pictures, and handed out as `/v1/pictures/[<signature>/]<file>?<query>`
/// URLs: the query redraws them on any instance, and the file's hash says it drew the same bytes.
struct RoutePictures: Sendable {
    /// A picture in one theme, as the document names it.
    struct Themed: Hashable, Sendable {
        let picture: MapPicture
        let theme: Theme
    }

    /// A picture at one scale: its URL and what the document says of it.
    struct Drawn: Sendable {
        let request: PictureRequest
        let image: PictureImage
    }

    /// Each picture's id, by theme.
    let ids: [Themed: SpriteID]
    /// Each id's pictures, by scale.
    let drawn: [SpriteID: [Drawn]]

    /// Draws those of `requests` that `records` does not hold on `pool`, and records them.
    static func draw(
        _ requests: [PictureRequest], on pool: CPUPool<PictureRenderers>, records: PictureRecords, metrics: ServiceMetrics
    ) async throws -> RoutePictures {
        var all: [Drawn] = []
        all.reserveCapacity(requests.count)
        var missing: [PictureRequest] = []
        for request in requests {
            if let image = records.record(of: request) { all.append(Drawn(request: request, image: image)) } else { missing.append(request) }
        }
        // Jobs of several pictures: a hop to the pool costs about a pin.
        let chunk = max(1, min(16, missing.count / max(1, 4 * pool.threadCount)))
        let drawn: [Drawn]
        do {
            drawn = try await pool.map(missing, chunk: chunk) { renderers, request in
                Drawn(request: request, image: try renderers.render(request).image)
            }
        } catch is CPUPool<PictureRenderers>.Refusal {
            // Others' pins and callouts fill the pool: a 503 with Retry-After, as for markers.
            throw RouteWorkers.busy
        }
        for picture in drawn { records.insert(picture.image, for: picture.request) }
        metrics.picturesDrawn.increment(by: Int64(drawn.count))
        all += drawn
        var shas: [Themed: [MarkerScale: String]] = [:]
        for drawn in all {
            shas[Themed(picture: drawn.request.picture, theme: drawn.request.theme), default: [:]][drawn.request.scale] = drawn.image.sha256
        }
        var ids: [Themed: SpriteID] = [:]
        var byID: [SpriteID: [Drawn]] = [:]
        for (themed, sha256ByScale) in shas {
            ids[themed] = SpriteID(picture: themed.picture, theme: themed.theme, sha256ByScale: sha256ByScale)
        }
        for drawn in all {
            guard let id = ids[Themed(picture: drawn.request.picture, theme: drawn.request.theme)] else { continue }
            byID[id, default: []].append(drawn)
        }
        return RoutePictures(ids: ids, drawn: byID)
    }

    /// The pin's and its callout's ids in `theme`.
    func images(of routePin: RoutePin, theme: Theme) throws(ServiceError) -> MarkersGeoJSON.PinImages {
        guard let icon = ids[Themed(picture: .pin(routePin.pin), theme: theme)],
            let callout = ids[Themed(picture: .callout(routePin.callout), theme: theme)]
        else {
            throw ServiceError(.internalServerError, "no picture drawn for pin \(routePin.number) in \(theme.name)")
        }
        return MarkersGeoJSON.PinImages(icon: icon.value, callout: callout.value)
    }

    /// The document's `images` entries of the pictures: for each id, its URL, `pixelRatio`,
    /// `width`, `height` and `anchor` at every scale.
    func imageEntries(base: String, urls: ServiceURLs) -> [String: JSONValue] {
        var entries: [String: JSONValue] = [:]
        for (id, pictures) in drawn {
            entries[id.value] = .array(
                pictures.sorted { $0.request.scale < $1.request.scale }.compactMap { drawn in
                    guard let ratio = drawn.request.scale.whole, let query = drawn.request.query else { return nil }
                    return [
                        "pixelRatio": .integer(ratio),
                        "url": .string(base + urls.picture(drawn.image.fileName, query: query)),
                        "width": .integer(drawn.image.width),
                        "height": .integer(drawn.image.height),
                        "anchor": [.number(drawn.image.anchor.x), .number(drawn.image.anchor.y)],
                    ]
                })
        }
        return entries
    }
}
