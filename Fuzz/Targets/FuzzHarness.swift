import MarkerMap
import MarkerRender
import RouteModel
import RouteFormats
import RoutePlacement
import MarkerSpec

#if canImport(Glibc)
import Glibc
#endif

/// What every fuzz target shares: the checks that must hold for any input, and the replay mode.
enum FuzzHarness {
    /// Small plan limits, so one input costs milliseconds and the fuzzer runs millions.
    static let planLimits = MarkerPlan.Limits(maximumMarkers: 2_000, maximumReading: 100_000)

    /// Reads `bytes` as a route in `format`; for a route that reads, places its markers and checks
    /// what must hold for every route.
    static func route(_ bytes: [UInt8], format: RouteFormat?) {
        guard let route = try? Route.parse(bytes, format: format) else { return }
        for stage in route.stages {
            require(stage.coordinates.count >= 2, "a stage with fewer than 2 points was kept")
            for point in stage.coordinates {
                require(point.latitude.isFinite && abs(point.latitude) <= 90, "latitude \(point.latitude) passed")
                require(point.longitude.isFinite && abs(point.longitude) <= 180, "longitude \(point.longitude) passed")
            }
        }
        for cumulative in [false, true] {
            guard let plan = try? MarkerPlan(route: route, unit: .km, cumulative: cumulative, limits: planLimits),
                let separate = try? MarkerPlan(route: route, unit: .km, cumulative: cumulative, combining: false, limits: planLimits)
            else { continue }
            let extent = MarkerPlan.Extent(stageLengths: plan.stageLengths, unit: .km, cumulative: cumulative)
            // The extent bounds the plan, leaving out at most one distance marker at each end of a stage.
            require(
                extent.markers >= separate.markers.count && extent.markers - separate.markers.count <= 2 * extent.stages,
                "extent says \(extent.markers) markers for \(extent.stages) stages, the plan has \(separate.markers.count)")
            for marker in plan.markers {
                require(marker.coordinate.latitude.isFinite && marker.coordinate.longitude.isFinite, "a marker placed at NaN")
                require(marker.distance.isFinite && marker.distance >= 0, "a marker reads \(marker.distance)")
                if marker.kind == .combined {
                    require((2...Marker.maximumParts).contains(marker.marker.parts.count), "a marker combines \(marker.marker.parts.count) parts")
                }
            }
            checkCombining(plan, separate)
            // Placing on the map does not depend on how readings count: once per input keeps the fuzzer fast.
            if !cumulative { checkPlacement(route, cumulative: cumulative, separate: separate) }
        }
    }

    /// One renderer measures every input's pictures: libFuzzer runs one input at a time.
    nonisolated(unsafe) static let renderer = try? MarkerRenderer()

    /// Placed on the map (the default): every reading shown by exactly one marker, each marker from
    /// one zoom on; on plans of up to 40 markers, checked pair by pair at every zoom, north up and
    /// turned, no two pictures within the gap, no start, end or combined marker hidden with room to
    /// show, and distance markers in even steps.
    static func checkPlacement(_ route: Route, cumulative: Bool, separate: MarkerPlan) {
        guard let renderer else { return }
        var options = MarkerPlan.Options()
        options.cumulative = cumulative
        // Smaller than the table's: placing a plan on the map costs several times planning it.
        options.limits = MarkerPlan.Limits(maximumMarkers: 400, maximumReading: planLimits.maximumReading)
        guard let plan = try? MarkerPlan(route: route, options: options, renderer: renderer) else { return }
        func readings(_ markers: [RouteMarker]) -> [String] { markers.flatMap(\.marker.parts).map { "\($0.kind) \($0.number)" }.sorted() }
        require(readings(plan.markers) == readings(separate.markers), "placing lost or added a reading")
        for marker in plan.markers {
            require(
                (2...Marker.maximumParts).contains(marker.marker.parts.count) || marker.kind != .combined,
                "a marker of \(marker.marker.parts.count) parts")
            let expected = marker.minzoom <= 22 ? Array(marker.minzoom...22) : []
            require(
                (0...ScreenPlacement.never).contains(marker.minzoom) && marker.zooms == expected,
                "\(marker.marker.label): minzoom \(marker.minzoom), zooms \(marker.zooms)")
        }
        require(plan.markers.first?.minzoom ?? 0 == 0, "the route's start is not on every zoom")
        guard plan.markers.count <= 40 else { return }
        var candidates: [ScreenPlacement.Candidate] = []
        for marker in plan.markers {
            guard let footprint = try? renderer.footprint(of: marker.marker) else { return }
            let point = WebMercator.point(marker.coordinate)
            candidates.append(ScreenPlacement.Candidate(x: point.x, y: point.y, footprint: footprint))
        }
        let counts = plan.markers.map { MarkerPlan.count(of: $0, interval: plan.interval) }
        for rotation in ScreenPlacement.Rotation.allCases {
            let minzooms = plan.markers.map { rotation == .northUp ? $0.minzoom : $0.minzoomTurned }
            require(zip(plan.markers, minzooms).allSatisfy { $1 >= $0.minzoom }, "shown turned before north up")
            for zoom in ScreenPlacement.zooms {
                let shown = plan.markers.indices.filter { minzooms[$0] <= zoom }
                func meets(_ first: Int, _ second: Int) -> Bool {
                    ScreenPlacement.conflict(candidates[first], candidates[second], zoom: zoom, rotation: rotation)
                }
                for (position, first) in shown.enumerated() {
                    for second in shown[(position + 1)...] {
                        require(!meets(first, second), "zoom \(zoom), \(rotation): two pictures within the gap")
                    }
                }
                // Starts, ends and combined markers: hidden only where one shown is in the way, or, turned,
                // before the zoom they show at north up (a turned map never shows more than a north-up one).
                for hidden in plan.markers.indices where minzooms[hidden] > zoom && counts[hidden] == nil {
                    guard rotation == .northUp || plan.markers[hidden].minzoom <= zoom else { continue }
                    require(shown.contains { meets(hidden, $0) }, "zoom \(zoom), \(rotation): hidden with room")
                }
                // Counted markers: neighbours multiples of one step, every multiple between them hidden
                // only by a marker without a count or another stage's.
                var byStage: [Int: [Int: Int]] = [:]
                for index in plan.markers.indices { if let count = counts[index] { byStage[count.stage, default: [:]][count.step] = index } }
                for (stage, steps) in byStage {
                    let shownSteps = steps.filter { minzooms[$0.value] <= zoom }.keys.sorted()
                    let neighbours = (cumulative && stage > 1 ? [] : [0]) + shownSteps
                    for (low, high) in zip(neighbours, neighbours.dropFirst()) {
                        let even = [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10_000].contains { step in
                            guard low % step == 0, high % step == 0 else { return false }
                            return stride(from: low + step, to: high, by: step).allSatisfy { multiple in
                                guard let hidden = steps[multiple] else { return true }
                                return shown.contains { counts[$0]?.stage != stage && meets(hidden, $0) }
                            }
                        }
                        require(even, "zoom \(zoom), \(rotation): stage \(stage) shows \(low) and \(high) in no even step")
                    }
                }
            }
        }
    }

    /// With the app's zoom table, combining takes only starts and ends, and shows every one of their readings.
    static func checkCombining(_ plan: MarkerPlan, _ separate: MarkerPlan) {
        require(plan.markers.count <= separate.markers.count, "combining added markers")
        require(
            plan.markers.filter { $0.kind == .distance } == separate.markers.filter { $0.kind == .distance },
            "combining changed the distance markers")
        func readings(_ markers: [RouteMarker]) -> [String] {
            markers.filter { $0.kind != .distance }.flatMap(\.marker.parts).map { "\($0.kind) \($0.distance)" }.sorted()
        }
        require(readings(plan.markers) == readings(separate.markers), "combining lost or added a start or end")
        var ends: [Int: Set<String>] = [:]
        for marker in separate.markers where marker.kind != .distance { ends[marker.stage, default: []].insert(marker.marker.number) }
        for marker in separate.markers where marker.kind == .distance {
            require(
                ends[marker.stage]?.contains(marker.marker.number) != true,
                "stage \(marker.stage): a distance marker reads \(marker.marker.label) as its start or end does")
        }
    }

    /// Stops with a message the fuzzer reports as a crash.
    static func require(_ condition: Bool, _ message: @autoclosure () -> String) {
        if !condition { fatalError(message()) }
    }

    /// Runs `body` once on the bytes of each file in `paths`.
    static func replay(_ paths: [String], _ body: ([UInt8]) -> Void) {
        for path in paths {
            guard let file = fopen(path, "rb") else {
                print("\(path): cannot be opened")
                continue
            }
            var bytes: [UInt8] = []
            var buffer = [UInt8](repeating: 0, count: 65536)
            while true {
                let count = fread(&buffer, 1, buffer.count, file)
                if count <= 0 { break }
                bytes.append(contentsOf: buffer[0..<count])
            }
            fclose(file)
            body(bytes)
            print("\(path): \(bytes.count) bytes, ran")
        }
    }
}
