public import MarkerRender
public import MarkerSpec
public import OfflineCorridor
public import RouteModel
public import RoutePlacement
import RouteFormats

/// A route made ready to draw: measured, its markers planned and placed on the map, its images
/// counted against a limit before any is drawn, and its offline corridor worked out when asked.
/// `markerpaint route` and `POST /v1/routes` both start from one, so what one offers the other has.
public struct PreparedRoute: Sendable {
    /// What preparing one route may cost.
    public struct Limits: Sendable {
        /// The largest plan made, counted from the stage lengths before any marker is.
        public var plan = MarkerPlan.Limits.standard
        /// The most distinct images (pictures × themes × scales).
        public var images = 100_000
        /// The most tiles an offline pack may hold, whatever the options ask; nil for theirs alone.
        public var offlineTiles: Int? = nil

        public init() {}
    }

    /// Why a route cannot be prepared: each edge says it in its own words.
    public enum Refusal: Error, Sendable {
        /// The route cannot be read, is over the plan's limits, or its corridor cannot be worked out.
        case route(RouteError)
        /// It needs more distinct images than `limit`.
        case images(needed: Int, limit: Int)
    }

    public let route: Route
    public let options: RouteOptions
    /// Where every marker goes and what it reads.
    public let plan: MarkerPlan
    /// Every distinct image the markers need, at the scales asked.
    public let imageSet: RouteImageSet
    /// The corridor and tiles to ride the route offline, when the options ask for them.
    public let offline: OfflinePack?

    /// Prepares `route` as `options` ask, its images at `scales`; `renderer` measures the pictures
    /// placed on the map.
    public init(route: Route, options: RouteOptions, scales: [MarkerScale], limits: Limits, renderer: MarkerRenderer) throws(Refusal) {
        self.route = route
        self.options = options
        do {
            plan = try MarkerPlan(route: route, options: options.planOptions(limits: limits.plan), renderer: renderer)
        } catch {
            throw .route(error)
        }
        do {
            imageSet = try RouteImageSet(plan: plan, themes: options.themes, scales: scales)
        } catch {
            throw .route(RouteError(error.message))
        }
        guard imageSet.count <= limits.images else { throw .images(needed: imageSet.count, limit: limits.images) }
        guard var corridor = options.offline else {
            offline = nil
            return
        }
        if let most = limits.offlineTiles { corridor.maximumTiles = min(corridor.maximumTiles, most) }
        do { offline = try OfflinePack(route: route, options: corridor) } catch { throw .route(error) }
    }

    /// Reads a route's bytes (GeoJSON, GPX, or an encoded polyline when `format` says so) and prepares it.
    public init(
        parsing bytes: [UInt8], format: RouteFormat?, options: RouteOptions, scales: [MarkerScale], limits: Limits, renderer: MarkerRenderer
    ) throws(Refusal) {
        let route: Route
        do { route = try Route.parse(bytes, format: format) } catch { throw .route(error) }
        try self.init(route: route, options: options, scales: scales, limits: limits, renderer: renderer)
    }

    /// Each distinct marker picture once, in route order.
    public var distinctMarkers: [Marker] {
        var seen = Set<Marker>()
        return plan.markers.map(\.marker).filter { seen.insert($0).inserted }
    }
}
