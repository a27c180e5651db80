import MarkerSpec

/// libFuzzer target: the command line's value parsers. The bytes are split at newlines into a
/// `--labels` list, an `--interval`, a `--scale` and a `--locale`, each read as the CLI reads it.
enum LabelsTarget: FuzzTarget {
    static let name = "labels"

    static func fuzz(_ bytes: [UInt8]) {
        let fields = bytes.split(separator: UInt8(ascii: "\n"), maxSplits: 3, omittingEmptySubsequences: false)
            .map { String(decoding: $0, as: UTF8.self) }
        let field = { (index: Int) in index < fields.count ? fields[index] : "" }
        let interval = (try? MarkerInterval(field(1))) ?? .one
        if let parsed = try? MarkerInterval(field(1)) {
            // An interval reads back from its own spelling as itself.
            FuzzHarness.require((try? MarkerInterval(parsed.description)) == parsed, "\(field(1)) read as \(parsed)")
        }
        if let list = try? LabelList(field(0), interval: interval) {
            // Readings are labels: each once, in range, in tenths, and no more of them than allowed.
            FuzzHarness.require(list.readings.count <= LabelList.maximumCount, "\(list.readings.count) readings")
            FuzzHarness.require(Set(list.readings).count == list.readings.count, "a reading listed twice")
            for reading in list.readings {
                FuzzHarness.require((0...Marker.maximumDistance).contains(reading), "reading \(reading) out of range")
                FuzzHarness.require((reading * 10).rounded() == reading * 10, "reading \(reading) is not in tenths")
                FuzzHarness.require(
                    (try? Marker(kind: .distance, distance: reading, precision: interval.precision)) != nil, "\(reading) draws no marker")
            }
        }
        if let scale = try? MarkerScale(field(2)) {
            // A scale has one spelling, and is one markerpaint draws.
            FuzzHarness.require(scale.description == field(2) && MarkerScale.all.contains(scale), "\(field(2)) read as \(scale)")
        }
        if let locale = try? LabelLocale(field(3)) {
            _ = locale.decimalMark
        }
    }
}
