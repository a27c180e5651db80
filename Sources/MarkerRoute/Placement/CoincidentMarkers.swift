import MarkerSpec

/// Where stage starts and ends meet, one combined marker instead of pills stacked on each other:
/// a loop's start and end, one stage ending where the next starts, an out-and-back split in two.
public enum CoincidentMarkers {
    /// Starts and ends this close to a group's first are one place to a rider (a trailhead, a car
    /// park, a hotel door): where a recording is stopped and the next started scatters over tens of
    /// metres, and at zoom 16 two pills 50 m apart still overlap.
    public static let radius = 50.0
    /// How many starts and ends back, in route order, one looks for a group to join; bounds the work
    /// per marker whatever the route, and reaches past the stages a split out-and-back puts between.
    static let lookBack = 8

    /// `markers` with each group of coincident starts and ends replaced by one combined marker at the
    /// group's first point, reading its parts in route order. Distance markers are left as they are.
    public static func combine(_ markers: [RouteMarker]) -> [RouteMarker] {
        let ends = markers.indices.filter { markers[$0].kind == .start || markers[$0].kind == .end }
        var groups: [[Int]] = []  // positions in `ends`
        var groupOf: [Int] = []  // by position in `ends`
        groupOf.reserveCapacity(ends.count)
        for position in ends.indices {
            let coordinate = markers[ends[position]].coordinate
            var joined: Int? = nil
            for earlier in stride(from: position - 1, through: max(0, position - lookBack), by: -1) {
                let group = groupOf[earlier]
                guard groups[group].count < Marker.maximumParts, let first = groups[group].first else { continue }
                if Geodesic.inverse(from: markers[ends[first]].coordinate, to: coordinate).distance <= radius {
                    joined = group
                    break
                }
            }
            if let joined {
                groups[joined].append(position)
                groupOf.append(joined)
            } else {
                groupOf.append(groups.count)
                groups.append([position])
            }
        }

        var groupAt: [Int: Int] = [:]  // marker index → group, for groups of two or more
        for (position, index) in ends.enumerated() where groups[groupOf[position]].count > 1 {
            groupAt[index] = groupOf[position]
        }
        var combined: [RouteMarker] = []
        combined.reserveCapacity(markers.count)
        for (index, routeMarker) in markers.enumerated() {
            guard let group = groupAt[index] else {
                combined.append(routeMarker)
                continue
            }
            // Only the group's first stands; the others are in its parts.
            guard ends[groups[group][0]] == index else { continue }
            let members = groups[group].map { markers[ends[$0]] }
            // Each member is a single start or end, so 2...maximumParts starts and ends: always valid.
            guard let marker = try? Marker(combining: members.flatMap(\.marker.parts), unit: routeMarker.unit) else {
                combined.append(contentsOf: members)
                continue
            }
            var merged = routeMarker
            merged.marker = marker
            combined.append(merged)
        }
        return combined
    }
}
