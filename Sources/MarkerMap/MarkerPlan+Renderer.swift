public import MarkerRender
public import RouteModel
public import RoutePlacement
import MarkerSpec

extension MarkerPlan {
    /// Plans `route` as `options` say; where markers are placed on the map, `renderer` measures
    /// each picture as it lays it out for drawing.
    /// - Throws: `RouteError` naming the limit a route exceeds, or the picture that could not be measured.
    public init(route: Route, options: Options, renderer: MarkerRenderer) throws(RouteError) {
        try self.init(route: route, options: options) { marker throws(RouteError) in
            do throws(RenderError) {
                return try renderer.footprint(of: marker)
            } catch {
                throw RouteError("cannot measure the picture of \(marker.label): \(error.message)")
            }
        }
    }
}
