import MarkerSpec

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import RouteModel

/// Where readings meet, one combined marker instead of pills stacked on each other: a loop's start
/// and end, one stage ending where the next starts, the outbound `3km` and the return `17km` of an
/// out-and-back, the laps of a course passing its start.
public enum CoincidentMarkers {
    /// Markers this close to a group's first are one place to a rider (a trailhead, a car park, a
    /// hotel door, the two sides of a road): where a recording is stopped and the next started
    /// scatters over tens of metres, and at zoom 16 two pills 50 m apart still overlap.
    public static let radius = 50.0

    /// Which markers join others.
    public enum Scope: Sendable {
        /// Starts and ends only: distance markers stand alone (with the original app's zoom table).
        case startsAndEnds
        /// Every marker: distance and countdown markers of different legs too.
        case everyReading
    }

    /// `markers` (in route order) with each group of markers within `radius` of the group's first
    /// replaced by one combined marker at the first's point, reading its parts in route order, and
    /// for each input marker the index of the output marker that shows it. A group holds at most
    /// `Marker.maximumParts` readings; a marker joins the open group whose first is nearest.
    ///
    /// Found with bounded work per marker: markers are bucketed in cells of twice the radius on the
    /// Earth-centred plane, and only open groups are kept. Open groups' firsts are more than `radius`
    /// apart (a marker within `radius` of an open group's first joins it), so few share a cell.
    public static func combine(_ markers: [RouteMarker], scope: Scope = .startsAndEnds) -> (markers: [RouteMarker], shownBy: [Int]) {
        var groups: [[Int]] = []  // marker indices, in route order
        var groupOf = [Int](repeating: -1, count: markers.count)
        var open: [Cell: [Int]] = [:]  // open groups by the cell of their first
        for (index, routeMarker) in markers.enumerated() {
            guard scope == .everyReading || routeMarker.kind == .start || routeMarker.kind == .end else { continue }
            let place = Place(routeMarker.coordinate)
            var nearest: (group: Int, metres: Double)? = nil
            for cell in place.neighbourhood {
                for group in open[cell] ?? [] {
                    let first = markers[groups[group][0]].coordinate
                    // Only those the chord finds may be near are measured on the ellipsoid.
                    guard place.chord(to: Place(first)) <= radius else { continue }
                    let metres = Geodesic.inverse(from: first, to: routeMarker.coordinate).distance
                    if metres <= radius, metres < nearest?.metres ?? .infinity { nearest = (group, metres) }
                }
            }
            if let (group, _) = nearest {
                groups[group].append(index)
                groupOf[index] = group
                if groups[group].count == Marker.maximumParts {
                    let cell = Place(markers[groups[group][0]].coordinate).cell
                    open[cell]?.removeAll { $0 == group }
                }
            } else {
                groupOf[index] = groups.count
                open[place.cell, default: []].append(groups.count)
                groups.append([index])
            }
        }

        var combined: [RouteMarker] = []
        combined.reserveCapacity(markers.count)
        var shownBy = [Int](repeating: -1, count: markers.count)
        for (index, routeMarker) in markers.enumerated() {
            let group = groupOf[index]
            guard group >= 0, groups[group].count > 1 else {
                shownBy[index] = combined.count
                combined.append(routeMarker)
                continue
            }
            // Only the group's first stands; the others are in its parts.
            let members = groups[group]
            guard members[0] == index else { continue }
            // Each member is a single reading, so 2...maximumParts of them: always valid.
            guard let marker = try? Marker(combining: members.flatMap { markers[$0].marker.parts }, unit: routeMarker.unit) else {
                for member in members {
                    shownBy[member] = combined.count
                    combined.append(markers[member])
                }
                continue
            }
            var merged = routeMarker
            merged.marker = marker
            // Shown wherever any of its parts would be.
            merged.zooms = Array(Set(members.flatMap { markers[$0].zooms })).sorted()
            merged.minzoom = members.map { markers[$0].minzoom }.min() ?? routeMarker.minzoom
            for member in members { shownBy[member] = combined.count }
            combined.append(merged)
        }
        return (combined, shownBy)
    }

    /// A point on a sphere of the Earth's mean radius, in metres from its centre.
    struct Place {
        let x: Double
        let y: Double
        let z: Double

        init(_ coordinate: Coordinate) {
            let latitude = coordinate.latitude * .pi / 180
            let longitude = coordinate.longitude * .pi / 180
            let radius = 6_371_008.8
            x = radius * cos(latitude) * cos(longitude)
            y = radius * cos(latitude) * sin(longitude)
            z = radius * sin(latitude)
        }

        /// Metres in a straight line to `other` on the sphere, less 1%: the sphere's radius is within
        /// 0.6% of the ellipsoid's curvature everywhere, so this never exceeds the geodesic at these distances.
        func chord(to other: Place) -> Double {
            let (dx, dy, dz) = (other.x - x, other.y - y, other.z - z)
            return (dx * dx + dy * dy + dz * dz).squareRoot() * (1 - 0.01)
        }

        /// Cells are twice the radius wide, with room for the 1% above: everything within the radius
        /// of a point lies in the two cells nearest it along each axis.
        static let cellSize = 2.2 * CoincidentMarkers.radius

        var cell: Cell { Cell(x: Self.index(x), y: Self.index(y), z: Self.index(z)) }

        /// The 8 cells that hold everything within the radius.
        var neighbourhood: [Cell] {
            func pair(_ value: Double) -> (Int, Int) {
                let index = Self.index(value)
                let within = value / Self.cellSize - Double(index)
                return within < 0.5 ? (index - 1, index) : (index, index + 1)
            }
            let (xs, ys, zs) = (pair(x), pair(y), pair(z))
            var cells: [Cell] = []
            cells.reserveCapacity(8)
            for cx in [xs.0, xs.1] {
                for cy in [ys.0, ys.1] {
                    for cz in [zs.0, zs.1] { cells.append(Cell(x: cx, y: cy, z: cz)) }
                }
            }
            return cells
        }

        static func index(_ value: Double) -> Int { Int((value / cellSize).rounded(.down)) }
    }

    struct Cell: Hashable {
        let x: Int
        let y: Int
        let z: Int
    }
}
