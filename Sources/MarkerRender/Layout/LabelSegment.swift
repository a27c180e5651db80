import MarkerSpec

/// A stretch of a marker's content: one label and the icons after it.
struct LabelSegment: Sendable, Equatable {
    enum Icon: Sendable, Equatable {
        case play, flag

        var width: Double {
            switch self {
            case .play: MarkerMetrics.playIconWidth
            case .flag: MarkerMetrics.flagIconWidth
            }
        }
    }

    var number: String
    var icons: [Icon]

    /// The minus sign (U+2212, as wide as a digit in Inter, not the hyphen) a countdown reads with.
    static let minusSign = "\u{2212}"

    /// The segments `marker` shows, left to right. Parts in a row that read the same share one
    /// label and show each of their icons once: counting on, a stage boundary reads `75km ⚑▶`.
    static func segments(of marker: Marker) -> [LabelSegment] {
        var segments: [LabelSegment] = []
        for part in marker.parts {
            let icon: Icon? =
                switch part.kind {
                case .start: .play
                case .end: .flag
                case .distance, .countdown, .combined: nil
                }
            let number = part.kind == .countdown ? minusSign + part.number : part.number
            if let last = segments.indices.last, segments[last].number == number {
                if let icon, !segments[last].icons.contains(icon) { segments[last].icons.append(icon) }
            } else {
                segments.append(LabelSegment(number: number, icons: icon.map { [$0] } ?? []))
            }
        }
        return segments
    }
}
