import MarkerSpec

extension PinIcon {
    /// The icon's shapes in a 24-unit square, centred on (12, 12).
    var shapes: [IconShape] {
        switch self {
        case .water:
            // A drop.
            [
                .fill(
                    .move(12, 2.5), .curve(12, 2.5, 5, 10.5, 5, 15), .arc(x: 12, y: 15, r: 7, from: 180, to: 0, anticlockwise: true),
                    .curve(19, 10.5, 12, 2.5, 12, 2.5), .close)
            ]
        case .food:
            // A fork and a knife.
            [
                .fill(
                    .rectangle(x: 5.4, y: 3, width: 1.4, height: 6.5, radius: 0.7), .rectangle(x: 7.8, y: 3, width: 1.4, height: 6.5, radius: 0.7),
                    .rectangle(x: 10.2, y: 3, width: 1.4, height: 6.5, radius: 0.7)),
                .fill(.move(5.4, 8), .line(11.6, 8), .curve(11.6, 10.4, 10.4, 11.6, 8.5, 11.6), .curve(6.6, 11.6, 5.4, 10.4, 5.4, 8), .close),
                .fill(.rectangle(x: 7.6, y: 10, width: 1.8, height: 11, radius: 0.9)),
                .fill(.move(15.2, 3), .curve(17.6, 3.6, 19, 7, 19, 13), .line(15.2, 13), .close),
                .fill(.rectangle(x: 15.2, y: 11.5, width: 1.9, height: 9.5, radius: 0.95)),
            ]
        case .cafe:
            // A cup on a saucer, steaming.
            [
                .fill(.move(4, 8.5), .line(16, 8.5), .line(16, 13.5), .curve(16, 16.5, 13.8, 18.5, 11, 18.5), .line(9, 18.5), .curve(6.2, 18.5, 4, 16.5, 4, 13.5), .close),
                .stroke(1.8, .arc(x: 16.4, y: 12.6, r: 2.4, from: -90, to: 90)),
                .stroke(1.3, .move(8, 3), .curve(6.8, 4.5, 9.2, 5.2, 8, 6.8), .move(12, 3), .curve(10.8, 4.5, 13.2, 5.2, 12, 6.8)),
                .fill(.rectangle(x: 2.5, y: 19.8, width: 16, height: 1.8, radius: 0.9)),
            ]
        case .summit:
            // Two peaks.
            [.fill(.move(1.5, 20), .line(9, 6.5), .line(12.6, 13), .line(15.5, 9), .line(22.5, 20), .close)]
        case .viewpoint:
            // An eye.
            [
                .fillWithHoles(
                    .move(1.5, 12), .curve(5, 5.5, 19, 5.5, 22.5, 12), .curve(19, 18.5, 5, 18.5, 1.5, 12), .close, .circle(x: 12, y: 12, r: 4.2),
                    .circle(x: 12, y: 12, r: 2))
            ]
        case .camp:
            // A tent with its door open.
            [.fillWithHoles(.move(12, 3.5), .line(22, 20), .line(2, 20), .close, .move(12, 12), .line(15.2, 20), .line(8.8, 20), .close)]
        case .shelter:
            // A hut with a door.
            [
                .fillWithHoles(
                    .move(12, 3), .line(21.5, 11), .line(19, 11), .line(19, 20.5), .line(5, 20.5), .line(5, 11), .line(2.5, 11), .close,
                    .rectangle(x: 10, y: 14, width: 4, height: 6.5))
            ]
        case .danger:
            // A warning triangle with an exclamation mark cut out.
            [
                .fillWithHoles(
                    .move(12, 2.8), .line(22.6, 20.6), .line(1.4, 20.6), .close, .rectangle(x: 10.9, y: 8.5, width: 2.2, height: 6.8, radius: 1.1),
                    .circle(x: 12, y: 17.4, r: 1.3))
            ]
        case .info:
            // A serif i.
            [
                .fill(.circle(x: 12, y: 5.2, r: 2.1)),
                .fill(
                    .move(9, 9.5), .line(13.5, 9.5), .line(13.5, 18.5), .line(15.5, 18.5), .line(15.5, 20.5), .line(8.5, 20.5), .line(8.5, 18.5),
                    .line(10.5, 18.5), .line(10.5, 11.5), .line(9, 11.5), .close),
            ]
        case .parking:
            // A P.
            [
                .fillWithHoles(
                    .move(6, 3), .line(13, 3), .curve(16.9, 3, 19, 5.8, 19, 9), .curve(19, 12.2, 16.9, 15, 13, 15), .line(10, 15), .line(10, 21),
                    .line(6, 21), .close, .move(10, 6.6), .line(12.8, 6.6), .curve(14.4, 6.6, 15.2, 7.7, 15.2, 9), .curve(15.2, 10.3, 14.4, 11.4, 12.8, 11.4),
                    .line(10, 11.4), .close)
            ]
        case .toilets:
            // A man and a woman, a line between them.
            [
                .fill(.circle(x: 6.5, y: 4.2, r: 2)),
                .fill(.rectangle(x: 4.3, y: 7.2, width: 4.4, height: 7.5, radius: 1.2)),
                .fill(.rectangle(x: 4.9, y: 13, width: 1.5, height: 8), .rectangle(x: 6.6, y: 13, width: 1.5, height: 8)),
                .fill(.circle(x: 17.5, y: 4.2, r: 2)),
                .fill(.move(17.5, 7), .line(21.3, 15.5), .line(13.7, 15.5), .close),
                .fill(.rectangle(x: 16, y: 15, width: 1.4, height: 6), .rectangle(x: 17.6, y: 15, width: 1.4, height: 6)),
                .fill(.rectangle(x: 11.4, y: 2.5, width: 1.2, height: 19)),
            ]
        case .repair:
            // A spanner.
            [
                .stroke(3.2, .move(5.2, 18.8), .line(12.9, 11.1)),
                .stroke(3, .arc(x: 15.5, y: 8.5, r: 3.6, from: -15, to: 255)),
            ]
        }
    }
}
