public import MarkerSpec
public import RouteModel

/// Every marker of a route: a start, a marker at each multiple of the interval and an end for each
/// stage, readings that meet combined, and the zooms each shows at.
public struct MarkerPlan: Sendable {
    /// Metres along each stage of the route, in the route's order.
    public let stageLengths: [Double]
    /// The spacing of the distance markers, in the unit; the zoom table counts in it.
    public let interval: MarkerInterval
    /// Whether the distance markers count down to each stage's end (`countdown` markers).
    public let countdown: Bool
    /// How the markers' zooms were decided.
    public let visibility: Visibility
    /// The markers, stage by stage, each stage's in order along it.
    public let markers: [RouteMarker]
    /// The route's points of interest, in the file's order, each with its pin and callout.
    public let pins: [RoutePin]
    /// What was wrong with the route's waypoints but did not stop them showing.
    public let warnings: [String]

    /// A distance marker this close to a stage's end (or, counting across stages, its start) is
    /// left out: the end (start) marker already stands there.
    static let coincidence = 1e-6

    /// How a plan decides which zooms show a marker.
    public enum Visibility: String, Sendable, CaseIterable {
        /// Placed on the map (`ScreenPlacement`): at each zoom the most useful markers that fit, none
        /// over another; each shows from its `minzoom` on. Readings of different legs that meet combine.
        case fit
        /// The original app's table (`ZoomTable`): starts and ends at every zoom, distance markers at
        /// multiples of each zoom's interval, whether they overlap or not. Only starts and ends combine.
        case table
    }

    /// What a plan is made with, besides the route.
    public struct Options: Sendable, Equatable {
        /// What the markers count in.
        public var unit: Marker.Unit = .km
        /// What labels write tenths after (`7,5km` for German).
        public var mark: Label.DecimalMark = .point
        /// The spacing of the distance markers, in the unit.
        public var interval: MarkerInterval = .one
        /// Whether the markers between read the distance left to each stage's end.
        public var countdown = false
        /// Whether counting goes on across stages instead of restarting at each.
        public var cumulative = false
        /// Whether readings that meet become one combined marker.
        public var combining = true
        /// How zooms are decided.
        public var visibility: Visibility = .fit
        /// The largest plan made.
        public var limits: Limits = .standard

        public init() {}
    }

    /// Places the markers of `route`, counting in `unit` from each stage's start, or across stages if
    /// `cumulative`, one every `interval`; labels write tenths after `mark`, and past 10 too if the
    /// interval has a tenth. With `countdown` the markers between read the distance left to the
    /// stage's end instead, at each multiple of the interval before it (starts and ends read as ever).
    /// The markers show at the zooms of the original app's table (`Visibility.table`).
    ///
    /// The route is measured first and the plan's size worked out from the stage lengths alone, so a
    /// route over `limits` is refused before a single marker is made, however many it would need.
    /// A start reads what was counted before it (0 unless `cumulative`); a distance marker that
    /// would read the same as its stage's start or end is left out, since that marker is right by it;
    /// starts and ends at one place become one combined marker (`CoincidentMarkers`) if `combining`.
    /// - Throws: `RouteError` naming the limit a route exceeds.
    public init(
        route: Route, unit: Marker.Unit, mark: Label.DecimalMark = .point, interval: MarkerInterval = .one, countdown: Bool = false,
        cumulative: Bool, combining: Bool = true, limits: Limits = .standard
    ) throws(RouteError) {
        var options = Options()
        options.unit = unit
        options.mark = mark
        options.interval = interval
        options.countdown = countdown
        options.cumulative = cumulative
        options.combining = combining
        options.visibility = .table
        options.limits = limits
        try self.init(route: route, options: options) { marker throws(RouteError) in
            throw RouteError("the zoom table measures no picture (\(marker.label))")
        }
    }

    /// Places the markers of `route` as `options` say (see the other initialiser for what each
    /// means). With `Visibility.fit`, readings of different legs that meet combine as starts and ends
    /// do, and each marker's zooms are placed on the map by `footprint`, where the picture of each
    /// distinct marker is opaque (asked once per picture).
    /// - Throws: `RouteError` naming the limit a route exceeds, or what `footprint` throws.
    public init(route: Route, options: Options, footprint: (Marker) throws(RouteError) -> MarkerFootprint) throws(RouteError) {
        let (unit, mark, interval, countdown, cumulative) = (options.unit, options.mark, options.interval, options.countdown, options.cumulative)
        let measured = route.stages.map(MeasuredStage.init)
        let extent = Extent(
            stageLengths: measured.map(\.length), unit: unit, interval: interval, countdown: countdown, cumulative: cumulative)
        try options.limits.check(extent, unit: unit)

        var markers: [RouteMarker] = []
        markers.reserveCapacity(extent.markers)
        // Zooms from the app's table; markers placed on the map get theirs once all are known.
        let byTable = options.visibility == .table
        let everyZoom = byTable ? Array(ZoomTable.zooms) : []
        func tableZooms(_ step: Int) -> [Int] { byTable ? ZoomTable.zooms(forStep: step) : [] }
        let unitLength = unit.metres
        let stepLength = Self.stepLength(unit: unit, interval: interval)
        let precision = interval.precision
        var before = 0.0  // metres counted before this stage
        for (index, measured) in measured.enumerated() {
            let stage = measured.stage
            guard let first = stage.coordinates.first, let last = stage.coordinates.last else { continue }
            let number = index + 1
            func marker(
                _ kind: Marker.Kind, _ distance: Double, _ coordinate: Coordinate, _ zooms: [Int]
            ) throws(RouteError) -> RouteMarker {
                do {
                    return RouteMarker(
                        marker: try Marker(kind: kind, distance: distance, unit: unit, mark: mark, precision: precision), stage: number,
                        stageName: stage.name, coordinate: coordinate, zooms: zooms)
                } catch {
                    // Only if `limits` allow readings past what a marker can show.
                    throw RouteError("stage \(number): \(error)")
                }
            }

            let start = try marker(.start, before / unitLength, first, everyZoom)
            let end = try marker(.end, (before + measured.length) / unitLength, last, everyZoom)
            markers.append(start)
            if countdown {
                // In route order: the most to go first. A marker reading what the whole stage reads
                // would stand by the start, as a distance marker reading the end's number stands by the end.
                let whole = Label.number(for: measured.length / unitLength, mark: mark, precision: precision)
                for step in Self.distanceSteps(before: 0, length: measured.length, stepLength: stepLength).reversed() {
                    let reading = interval.reading(step: step)
                    if Label.number(for: reading, mark: mark, precision: precision) == whole { continue }
                    let coordinate = measured.coordinate(atDistance: measured.length - Double(step) * stepLength)
                    markers.append(try marker(.countdown, reading, coordinate, tableZooms(step)))
                }
            } else {
                for step in Self.distanceSteps(before: before, length: measured.length, stepLength: stepLength) {
                    let reading = interval.reading(step: step)
                    let number = Label.number(for: reading, mark: mark, precision: precision)
                    if number == start.marker.number || number == end.marker.number { continue }
                    let coordinate = measured.coordinate(atDistance: Double(step) * stepLength - before)
                    markers.append(try marker(.distance, reading, coordinate, tableZooms(step)))
                }
            }
            markers.append(end)

            if cumulative { before += measured.length }
        }
        stageLengths = measured.map(\.length)
        self.interval = interval
        self.countdown = countdown
        visibility = options.visibility
        var shown = markers
        var routeEnds = (start: 0, end: markers.count - 1)
        if options.combining {
            let combined = CoincidentMarkers.combine(markers, scope: options.visibility == .fit ? .everyReading : .startsAndEnds)
            shown = combined.markers
            routeEnds = (combined.shownBy.first ?? 0, combined.shownBy.last ?? 0)
        }
        var pins: [RoutePin] = []
        var warnings: [String] = []
        pins.reserveCapacity(route.waypoints.count)
        for (index, waypoint) in route.waypoints.enumerated() {
            let (pin, warning) = RoutePin.make(waypoint, number: index + 1, zooms: everyZoom)
            pins.append(pin)
            if let warning { warnings.append(warning) }
        }
        if options.visibility == .fit {
            try Self.place(&shown, pins: &pins, routeStart: routeEnds.start, finalEnd: routeEnds.end, interval: interval, footprint: footprint)
        }
        self.markers = shown
        self.pins = pins
        self.warnings = warnings
    }

    /// Metres between distance markers.
    public static func stepLength(unit: Marker.Unit, interval: MarkerInterval) -> Double {
        unit.metres * Double(interval.tenths) / 10
    }

    /// The steps (multiples of `stepLength` metres) a stage's distance markers stand at: past its
    /// start (`before` metres were counted before it) and short of its end, each by more than `coincidence`.
    static func distanceSteps(before: Double, length: Double, stepLength: Double) -> Range<Int> {
        // Lengths are sums of finite segments of at most half the globe, far inside Int; the clamp
        // only keeps the conversion total.
        func whole(_ value: Double) -> Int { Int(max(-1e15, min(1e15, value))) }
        var first = max(1, whole((before / stepLength).rounded(.down)))
        while Double(first) * stepLength - before <= coincidence { first += 1 }
        // One past the last: the division lands within a step of it, the loops settle the rounding.
        var end = max(first, whole(((before + length) / stepLength).rounded(.up)) + 1)
        while end > first, Double(end - 1) * stepLength - before >= length - coincidence { end -= 1 }
        return first..<end
    }
}

extension MarkerPlan {
    /// How large a plan is, worked out from the stage lengths without making a marker.
    public struct Extent: Sendable, Equatable {
        /// At most how many markers: a start and an end per stage, and the distance markers between
        /// (fewer where one would read what its stage's start or end reads, or starts and ends combine).
        public var markers = 0
        /// Stages (each has a start and an end marker).
        public var stages = 0
        /// At most how many distinct readings distance markers have.
        public var distanceLabels = 0
        /// The largest distance a marker reads, in the unit, and the 1-based stage whose end reads it.
        public var longestReading = 0.0
        public var longestStage = 0

        /// The extent of a plan of stages `stageLengths` metres long.
        public init(
            stageLengths: [Double], unit: Marker.Unit, interval: MarkerInterval = .one, countdown: Bool = false, cumulative: Bool
        ) {
            var before = 0.0
            var highestLabel = 0
            let stepLength = MarkerPlan.stepLength(unit: unit, interval: interval)
            for (index, length) in stageLengths.enumerated() {
                // A countdown counts each stage from its end, whatever was counted before it.
                let counts = MarkerPlan.distanceSteps(before: countdown ? 0 : before, length: length, stepLength: stepLength)
                stages += 1
                markers += 2 + counts.count
                // Counting on, the stages' readings never overlap; restarting (or counting down), they share 1...highest.
                if cumulative && !countdown {
                    distanceLabels += counts.count
                } else {
                    highestLabel = max(highestLabel, counts.last ?? 0)
                }
                let reading = (before + length) / unit.metres
                if reading > longestReading {
                    longestReading = reading
                    longestStage = index + 1
                }
                if cumulative { before += length }
            }
            if !cumulative || countdown { distanceLabels = highestLabel }
        }

    }

    /// What one plan may hold; a route beyond it is refused before its markers are made.
    public struct Limits: Sendable, Equatable {
        /// The most markers in one plan.
        public var maximumMarkers: Int
        /// The longest distance a marker may read, in the plan's unit (what a marker can show).
        public var maximumReading: Double

        public init(maximumMarkers: Int, maximumReading: Double) {
            self.maximumMarkers = maximumMarkers
            self.maximumReading = maximumReading
        }

        /// 200,000 markers (a 100,000 km route in two stages) and readings up to what a marker shows.
        public static let standard = Limits(maximumMarkers: 200_000, maximumReading: Marker.maximumDistance)

        /// Throws if a plan of `extent` would exceed these limits.
        public func check(_ extent: Extent, unit: Marker.Unit) throws(RouteError) {
            guard extent.longestReading <= maximumReading else {
                throw RouteError(
                    "stage \(extent.longestStage) would end at \(Self.grouped(extent.longestReading)) \(unit.rawValue), "
                        + "more than a marker can show (\(Self.grouped(maximumReading)) \(unit.rawValue))")
            }
            guard extent.markers <= maximumMarkers else {
                throw RouteError(
                    "the route needs \(Self.grouped(Double(extent.markers))) markers, more than the limit of "
                        + "\(Self.grouped(Double(maximumMarkers))) per route")
            }
        }

        /// A count or length as a person reads it: `40,011,204`, `20,003.9`.
        static func grouped(_ value: Double) -> String {
            let tenths = (value * 10).rounded()
            let whole = Int(tenths / 10)
            var digits = String(whole)
            var groups: [Substring] = []
            while digits.count > 3 {
                groups.insert(Substring(digits.suffix(3)), at: 0)
                digits.removeLast(3)
            }
            groups.insert(Substring(digits), at: 0)
            let fraction = Int(tenths) % 10
            return groups.joined(separator: ",") + (fraction == 0 ? "" : ".\(fraction)")
        }
    }
}
