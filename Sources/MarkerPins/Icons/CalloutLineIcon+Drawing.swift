import MarkerSpec

extension CalloutLineIcon {
    /// The icon's shapes in a 24-unit square, drawn in the detail lines' colour.
    var shapes: [IconShape] {
        switch self {
        case .location:
            // A map pin with a hole.
            [
                .fillWithHoles(
                    .move(12, 22), .curve(12, 22, 4.5, 14.5, 4.5, 9.5), .arc(x: 12, y: 9.5, r: 7.5, from: 180, to: 0), .curve(19.5, 14.5, 12, 22, 12, 22),
                    .close, .circle(x: 12, y: 9.5, r: 3))
            ]
        case .date:
            // A calendar page.
            [
                .fillWithHoles(.rectangle(x: 3, y: 5, width: 18, height: 16, radius: 2), .rectangle(x: 5, y: 10, width: 14, height: 9)),
                .fill(.rectangle(x: 7, y: 2.5, width: 2.2, height: 5, radius: 1), .rectangle(x: 14.8, y: 2.5, width: 2.2, height: 5, radius: 1)),
                .fill(.rectangle(x: 7, y: 12, width: 4, height: 3)),
            ]
        case .mail:
            // An envelope.
            [
                .fillWithHoles(.rectangle(x: 2, y: 5, width: 20, height: 14, radius: 2), .rectangle(x: 4, y: 7, width: 16, height: 10)),
                .stroke(2, .move(3.5, 7), .line(12, 13), .line(20.5, 7)),
            ]
        case .phone:
            // A handset.
            [
                .fill(
                    .move(6.6, 2.5), .line(9.6, 2.5), .line(11, 8), .line(8.8, 10), .curve(10, 12.8, 11.2, 14, 14, 15.2), .line(16, 13), .line(21.5, 14.4),
                    .line(21.5, 17.4), .curve(21.5, 19.6, 19.6, 21.5, 17.4, 21.5), .curve(9.2, 21.5, 2.5, 14.8, 2.5, 6.6), .curve(2.5, 4.4, 4.4, 2.5, 6.6, 2.5),
                    .close)
            ]
        case .distance:
            // Two arrow heads on a line: from here to there.
            [
                .stroke(2.2, .move(4, 12), .line(20, 12)),
                .fill(.move(2, 12), .line(8, 6.5), .line(8, 17.5), .close, .move(22, 12), .line(16, 6.5), .line(16, 17.5), .close),
            ]
        case .time:
            // A clock.
            [
                .fillWithHoles(.circle(x: 12, y: 12, r: 10), .circle(x: 12, y: 12, r: 7.8)),
                .stroke(2, .move(12, 6.5), .line(12, 12), .line(16, 14.5)),
            ]
        }
    }
}
