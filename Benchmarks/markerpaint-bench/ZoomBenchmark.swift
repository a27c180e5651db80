import ArgumentParser
import Foundation
import MarkerMap
import MarkerRender
import RouteModel
import RoutePlacement
import MarkerSpec

extension MarkerBench {
    /// Which zooms show which markers: placed on the map against the app's zoom table, on one core.
    struct Zooms: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Place a route's markers on the map at zooms 0-22, against the zoom table's time in the same run.",
            discussion: """
                The route is a winding walk (as `placement` uses) with a marker every --interval km: 250,000 points \
                and 0.1 km make about 20,000 markers. Each figure is the median of --runs, on one thread.
                """
        )

        @Option(help: "Points in the route (about 8 m apart).") var points = 250_000
        @Option(help: "Distance between markers, in km.") var interval = "0.1"
        @Option(help: "Runs; each figure is the median run.") var runs = 9

        func validate() throws {
            guard (2...10_000_000).contains(points) else { throw ValidationError("--points must be 2 to 10000000") }
            guard (1...100).contains(runs) else { throw ValidationError("--runs must be 1 to 100") }
            _ = try MarkerInterval(interval)
        }

        func run() throws {
            let route = Route(stages: [Stage(name: "bench", coordinates: SyntheticRoute.winding(points: points))])
            var table = MarkerPlan.Options()
            table.interval = try MarkerInterval(interval)
            table.visibility = .table
            var fit = table
            fit.visibility = .fit
            fit.limits = .standard

            // The pictures measured once, as a batch does before it places.
            let renderer = try MarkerRenderer()
            var footprints: [Marker: MarkerFootprint] = [:]
            let (_, measureTime) = try timed {
                try MarkerPlan(route: route, options: fit) { marker throws(RouteError) in
                    do throws(RenderError) {
                        let footprint = try renderer.footprint(of: marker)
                        footprints[marker] = footprint
                        return footprint
                    } catch {
                        throw RouteError(error.message)
                    }
                }
            }
            let known = footprints
            let lookUp: (Marker) throws(RouteError) -> MarkerFootprint = { marker throws(RouteError) in
                guard let footprint = known[marker] else { throw RouteError("no footprint for \(marker.label)") }
                return footprint
            }

            var tableTimes: [Double] = []
            var fitTimes: [Double] = []
            var placeTimes: [Double] = []
            var northTimes: [Double] = []
            var bothTimes: [Double] = []
            var plan: MarkerPlan? = nil
            for _ in 1...runs {
                tableTimes.append(try timed { try MarkerPlan(route: route, options: table) { _ throws(RouteError) in throw RouteError("unused") } }.1)
                let (placed, fitTime) = try timed { try MarkerPlan(route: route, options: fit, footprint: lookUp) }
                fitTimes.append(fitTime)
                plan = placed
                // The placement step alone, on the placed plan's markers.
                // Without counts, every marker is placed as soon as it fits, most important first: the
                // placement before even steps and turned maps, the baseline.
                let candidates = placed.markers.map { routeMarker in
                    let point = WebMercator.point(routeMarker.coordinate)
                    return ScreenPlacement.Candidate(
                        x: point.x, y: point.y,
                        footprint: known[routeMarker.marker]
                            ?? MarkerFootprint(pill: .init(left: 0, top: 0, right: 0, bottom: 0), dot: .init(left: 0, top: 0, right: 0, bottom: 0)))
                }
                let counted = zip(candidates, placed.markers).map { candidate, routeMarker in
                    var counted = candidate
                    counted.count = MarkerPlan.count(of: routeMarker, interval: placed.interval)
                    return counted
                }
                let order = MarkerPlan.importanceOrder(
                    placed.markers, routeStart: 0, finalEnd: placed.markers.count - 1, interval: placed.interval)
                placeTimes.append(timed { ScreenPlacement.minzooms(of: candidates, order: order) }.1)
                let (north, northTime) = timed { ScreenPlacement.minzooms(of: counted, order: order) }
                northTimes.append(northTime)
                bothTimes.append(
                    northTime + timed { ScreenPlacement.minzooms(of: counted, order: order, rotation: .courseUp, notBefore: north) }.1)
            }
            guard let plan else { return }
            let median = { (values: [Double]) in values.sorted()[values.count / 2] }
            let shownAt = ScreenPlacement.zooms.map { zoom in plan.markers.filter { $0.minzoom <= zoom }.count }
            print(
                "\(points) points, \(String(format: "%.0f", plan.stageLengths.reduce(0, +) / 1000)) km, \(plan.markers.count) markers "
                    + "(\(footprints.count) pictures), one thread, median of \(runs)")
            let shownTurned = ScreenPlacement.zooms.map { zoom in plan.markers.filter { $0.minzoomTurned <= zoom }.count }
            print("shown at zooms 0-22: " + shownAt.map(String.init).joined(separator: " "))
            print("turned, at zooms 0-22: " + shownTurned.map(String.init).joined(separator: " "))
            print(String(format: "measure every picture at every scale (once, before placing): %.1f ms", measureTime * 1000))
            print(String(format: "plan with the zoom table:                 %.1f ms", median(tableTimes) * 1000))
            print(String(format: "plan placed on the map (pictures known): %.1f ms", median(fitTimes) * 1000))
            print(String(format: "  of which ScreenPlacement at 23 zooms:   %.1f ms", median(northTimes) * 1000))
            print(String(format: "placement in even steps, north up and turned (both ways): %.1f ms", median(bothTimes) * 1000))
            print(String(format: "placement as it was (greedy, north up only, no steps):     %.1f ms", median(placeTimes) * 1000))
            print(
                String(
                    format: "ratio: both ways %.2f× the placement as it was; north up alone %.2f×",
                    median(bothTimes) / median(placeTimes), median(northTimes) / median(placeTimes)))
            print(
                String(
                    format: "ratio: placing on the map costs %.2f× planning with the table; the placement step alone %.2f× it",
                    median(fitTimes) / median(tableTimes), median(northTimes) / median(tableTimes)))
        }

    }
}
