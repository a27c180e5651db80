import Foundation
import MarkerPixels
import MarkerRender
import MarkerPNG

/// A route's markers as a map shows them, read back from the files `markerpaint route` wrote:
/// `markers.geojson` for each marker's point, zooms and picture, `manifest.json` for the picture's
/// @2x PNG and anchor, and the PNG's own opaque pixels. Projected here, on its own, onto MapLibre's
/// Web Mercator plane of 512-point tiles, so that the placement is checked by what is drawn, not
/// by the code that placed it.
struct WrittenMap {
    /// A picture's opaque pixels (alpha at least half: the pill, its text and icons, the dot; not
    /// the shadow's fade) in points from the anchor, read at @2x.
    struct Picture {
        /// Each row's opaque run (pills and dots are convex, so one run a row).
        struct Row {
            let top: Double
            let bottom: Double
            let left: Double
            let right: Double
        }

        let rows: [Row]
        /// The pill's box and the dot's box, from the rows above and below the pill's bottom edge,
        /// which MARKER.md puts 2 points above the anchor (the dot's centre).
        let pill: Row
        let dot: Row

        init(png: RGBAImage, anchor: (x: Double, y: Double), scale: Double) {
            var rows: [Row] = []
            for y in 0..<png.height {
                var first: Int? = nil
                var last = 0
                for x in 0..<png.width where png[x, y].a >= 128 {
                    if first == nil { first = x }
                    last = x
                }
                guard let first else { continue }
                rows.append(
                    Row(
                        top: (Double(y) - anchor.y) / scale, bottom: (Double(y + 1) - anchor.y) / scale,
                        left: (Double(first) - anchor.x) / scale, right: (Double(last + 1) - anchor.x) / scale))
            }
            self.rows = rows
            func box(_ rows: [Row]) -> Row {
                Row(
                    top: rows.map(\.top).min() ?? 0, bottom: rows.map(\.bottom).max() ?? 0, left: rows.map(\.left).min() ?? 0,
                    right: rows.map(\.right).max() ?? 0)
            }
            pill = box(rows.filter { $0.bottom <= -2 })
            dot = box(rows.filter { $0.top >= -2 })
        }
    }

    struct Marker {
        let label: String
        let kind: String
        let longitude: Double
        let latitude: Double
        let minzoom: Int
        let minzoomTurned: Int
        let zooms: [Int]
        let stage: Int
        /// What it reads, in the unit.
        let distance: Double
        /// On the Web Mercator square, 0..<1 each way.
        let x: Double
        let y: Double
        let picture: Picture
    }

    let markers: [Marker]
    let manifest: [String: Any]
    let style: [String: Any]?

    init(folder: String, theme: String = "day") throws {
        let geojson = try BatchFixtures.json(folder + "/markers.geojson") as? [String: Any] ?? [:]
        manifest = try BatchFixtures.json(folder + "/manifest.json") as? [String: Any] ?? [:]
        style =
            FileManager.default.fileExists(atPath: folder + "/style.json") ? try BatchFixtures.json(folder + "/style.json") as? [String: Any] : nil
        // Pins are pictures of their own, recorded beside the markers' images.
        let images = (manifest["images"] as? [[String: Any]] ?? []) + (manifest["pictures"] as? [[String: Any]] ?? [])
        var pictures: [String: Picture] = [:]
        var markers: [Marker] = []
        for feature in geojson["features"] as? [[String: Any]] ?? [] {
            let properties = feature["properties"] as? [String: Any] ?? [:]
            let point = (feature["geometry"] as? [String: Any])?["coordinates"] as? [Double] ?? []
            guard let icon = (properties["icon"] as? [String: String])?[theme], point.count == 2 else { throw Unreadable(feature: "\(feature)") }
            if pictures[icon] == nil {
                guard let image = images.first(where: { $0["sprite"] as? String == icon && $0["scale"] as? Int == 2 }),
                    let file = image["file"] as? String, let anchor = image["anchor"] as? [String: Double]
                else { throw Unreadable(feature: "\(feature)") }
                let png = try PNGDecoder.decode([UInt8](Data(contentsOf: URL(fileURLWithPath: folder + "/" + file))))
                pictures[icon] = Picture(png: png, anchor: (anchor["x"] ?? 0, anchor["y"] ?? 0), scale: 2)
            }
            guard let picture = pictures[icon] else { throw Unreadable(feature: "\(feature)") }
            let (longitude, latitude) = (point[0], point[1])
            // Mercator by the inverse Gudermannian, clamped at the plane's edges as a GeoJSON source clamps.
            let y = min(1, max(0, 0.5 - asinh(tan(latitude * .pi / 180)) / (2 * .pi)))
            markers.append(
                Marker(
                    label: properties["label"] as? String ?? "pin\(properties["pin"] as? Int ?? 0)", kind: properties["kind"] as? String ?? "", longitude: longitude,
                    latitude: latitude, minzoom: properties["minzoom"] as? Int ?? -1, minzoomTurned: properties["minzoomTurned"] as? Int ?? -1,
                    zooms: properties["zooms"] as? [Int] ?? [], stage: properties["stage"] as? Int ?? 0,
                    distance: properties["distance"] as? Double ?? .nan, x: (longitude + 180) / 360, y: latitude.isNaN ? .nan : y, picture: picture))
        }
        self.markers = markers
    }

    struct Unreadable: Error { let feature: String }

    /// Where `second`'s anchor is from `first`'s at `zoom`, in points on the screen, over the nearest
    /// copy of the world, on a map turned `bearing` degrees clockwise (the points turn about each other).
    func offset(_ first: Int, _ second: Int, zoom: Int, bearing: Double = 0) -> (dx: Double, dy: Double) {
        let world = 512 * pow(2, Double(zoom))
        var dx = (markers[second].x - markers[first].x) * world
        if dx > world / 2 { dx -= world } else if dx < -world / 2 { dx += world }
        let dy = (markers[second].y - markers[first].y) * world
        guard bearing != 0 else { return (dx, dy) }
        let (sine, cosine) = (sin(bearing * .pi / 180), cos(bearing * .pi / 180))
        return (dx * cosine + dy * sine, -dx * sine + dy * cosine)
    }

    /// Whether two rows (the second moved by `dx`, `dy`) come within `gap` of each other (any
    /// positive gap for pixels over each other).
    static func near(_ a: Picture.Row, _ b: Picture.Row, dx: Double, dy: Double, gap: Double) -> Bool {
        let horizontal = max(0, dx + b.left - a.right, a.left - (dx + b.right))
        let vertical = max(0, dy + b.top - a.bottom, a.top - (dy + b.bottom))
        return horizontal < gap && vertical < gap
    }

    /// Whether the opaque pixels of two markers come within `gap` points of each other at `zoom`,
    /// on a map turned `bearing` degrees (the points turn, the pictures stay upright).
    func pixelsNear(_ first: Int, _ second: Int, zoom: Int, gap: Double, bearing: Double = 0) -> Bool {
        let (dx, dy) = offset(first, second, zoom: zoom, bearing: bearing)
        let (a, b) = (markers[first].picture, markers[second].picture)
        guard Self.near(a.pill.union(a.dot), b.pill.union(b.dot), dx: dx, dy: dy, gap: gap) else { return false }
        for rowA in a.rows {
            for rowB in b.rows where Self.near(rowA, rowB, dx: dx, dy: dy, gap: gap) { return true }
        }
        return false
    }

    /// Whether the pill and dot boxes of two markers come within `gap` points of each other at `zoom`,
    /// on a map turned `bearing` degrees.
    func boxesNear(_ first: Int, _ second: Int, zoom: Int, gap: Double, bearing: Double = 0) -> Bool {
        let (dx, dy) = offset(first, second, zoom: zoom, bearing: bearing)
        let (a, b) = (markers[first].picture, markers[second].picture)
        return [(a.pill, b.pill), (a.pill, b.dot), (a.dot, b.pill), (a.dot, b.dot)].contains { Self.near($0, $1, dx: dx, dy: dy, gap: gap) }
    }

    /// The markers shown at `zoom`, by their `zooms` (from `minzoom` on when placed, the table's own otherwise).
    func shown(at zoom: Int) -> [Int] { markers.indices.filter { markers[$0].zooms.contains(zoom) } }

    /// The markers shown at `zoom` on a turned map, from `minzoomTurned` on.
    func shownTurned(at zoom: Int) -> [Int] { markers.indices.filter { markers[$0].minzoomTurned <= zoom } }

    /// Every pair of markers shown at `zoom` whose pixels come within `gap`, found by a sweep along
    /// x; on a turned map (`bearings`), those shown turned that meet at any of the bearings.
    /// (`northUpShown`: turned, but the markers north-up shows, as a map would that turned a north-up style.)
    func crowdedPairs(zoom: Int, gap: Double, bearings: [Double]? = nil, northUpShown: Bool = false) -> [(Int, Int)] {
        let world = 512 * pow(2, Double(zoom))
        let shown = (bearings == nil || northUpShown ? shown(at: zoom) : shownTurned(at: zoom)).sorted { markers[$0].x < markers[$1].x }
        // Turned, a picture reaches as far as its farthest corner in any direction.
        let widest =
            bearings == nil
            ? markers.map { $0.picture.pill.right - $0.picture.pill.left }.max() ?? 0
            : 2 * (markers.map { marker in
                let box = marker.picture.pill.union(marker.picture.dot)
                return [hypot(box.left, box.top), hypot(box.right, box.top), hypot(box.left, box.bottom), hypot(box.right, box.bottom)].max() ?? 0
            }.max() ?? 0)
        let reach = widest + gap
        func near(_ first: Int, _ second: Int) -> Bool {
            (bearings ?? [0]).contains { pixelsNear(first, second, zoom: zoom, gap: gap, bearing: $0) }
        }
        var pairs: [(Int, Int)] = []
        for (position, first) in shown.enumerated() {
            for second in shown[(position + 1)...] {
                guard (markers[second].x - markers[first].x) * world <= reach else { break }
                if abs(markers[second].y - markers[first].y) * world <= reach, near(first, second) { pairs.append((first, second)) }
            }
        }
        // Across the antimeridian: the last pictures of the world against its first.
        for first in shown where (1 - markers[first].x) * world <= reach {
            for second in shown where markers[second].x * world <= reach && second != first {
                if near(first, second), !pairs.contains(where: { $0 == (second, first) || $0 == (first, second) }) {
                    pairs.append((first, second))
                }
            }
        }
        return pairs
    }
}

extension WrittenMap.Picture.Row {
    func union(_ other: Self) -> Self {
        Self(top: min(top, other.top), bottom: max(bottom, other.bottom), left: min(left, other.left), right: max(right, other.right))
    }
}

extension WrittenMap {
    /// The ladder of even steps, in intervals.
    static let ladder = [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10_000, 20_000, 50_000]

    /// Each stage's distance markers by their reading (whole intervals of 1).
    var counted: [Int: [Int: Int]] {
        var stages: [Int: [Int: Int]] = [:]
        for (index, marker) in markers.enumerated() where marker.kind == "distance" || marker.kind == "countdown" {
            stages[marker.stage, default: [:]][Int(marker.distance.rounded())] = index
        }
        return stages
    }

    /// Each pair of neighbouring distance markers of a stage shown at `zoom` (the count's 0 as one)
    /// with the largest step both are multiples of such that every multiple between them is hidden
    /// only because it would meet (within `gap`) a start, end or combined marker or another stage's;
    /// a step of 0 where there is none. Turned: shown from `minzoomTurned`, meeting at any bearing in `bearings`.
    func neighbours(zoom: Int, gap: Double, bearings: [Double]? = nil) -> [(stage: Int, low: Int, high: Int, step: Int)] {
        let shown = bearings == nil ? shown(at: zoom) : shownTurned(at: zoom)
        let shownSet = Set(shown)
        var pairs: [(stage: Int, low: Int, high: Int, step: Int)] = []
        for (stage, steps) in counted {
            let readings = [0] + steps.filter { shownSet.contains($0.value) }.keys.sorted()
            for (low, high) in zip(readings, readings.dropFirst()) {
                let step = Self.ladder.reversed().first { step in
                    guard low % step == 0, high % step == 0 else { return false }
                    return stride(from: low + step, to: high, by: step).allSatisfy { reading in
                        guard let hidden = steps[reading] else { return true }
                        return shown.contains { other in
                            let counted = markers[other].kind == "distance" || markers[other].kind == "countdown"
                            guard !counted || markers[other].stage != stage else { return false }
                            return (bearings ?? [0]).contains { boxesNear(hidden, other, zoom: zoom, gap: gap, bearing: $0) }
                        }
                    }
                }
                pairs.append((stage, low, high, step ?? 0))
            }
        }
        return pairs
    }
}
