public import MarkerSpec

/// One fix's progress as a line of NDJSON, as `markerpaint progress` and `POST /v1/progress` write
/// it: its fields in reading order (fix, line, lon, lat, distance, remaining, …), then what the
/// caller adds (the countdown marker's names or URLs).
public struct ProgressLine: Sendable {
    private var fields: [String]

    /// The fields every line has: the fix's number among those followed, its input line, the
    /// snapped place (7 decimals), distances in `unit` (4 decimals), offset and threshold in metres
    /// (1 decimal), onRoute and, when something happened, the event.
    public init(_ progress: RouteProgress, fix: Int, line: Int, unit: Marker.Unit) {
        fields = [
            "\"fix\":\(fix)", "\"line\":\(line)",
            "\"lon\":\(Self.number(progress.snapped.longitude, 7))", "\"lat\":\(Self.number(progress.snapped.latitude, 7))",
            "\"distance\":\(Self.number(progress.distance / unit.metres, 4))",
            "\"remaining\":\(Self.number(progress.remaining / unit.metres, 4))",
            "\"stage\":\(progress.stage)",
            "\"stageDistance\":\(Self.number(progress.stageDistance / unit.metres, 4))",
            "\"stageRemaining\":\(Self.number(progress.stageRemaining / unit.metres, 4))",
            "\"offset\":\(Self.number(progress.offset, 1))", "\"onRoute\":\(progress.onRoute)",
            "\"threshold\":\(Self.number(progress.threshold, 1))",
        ]
        if let event = progress.event { fields.append("\"event\":\(Self.quoted(event.rawValue))") }
    }

    /// Adds `key` with the first of `values` and, when there are more (one per theme), `key` + "s"
    /// with them all; nothing when `values` is empty.
    public mutating func append(_ key: String, _ values: [String]) {
        guard let first = values.first else { return }
        fields.append("\(Self.quoted(key)):\(Self.quoted(first))")
        if values.count > 1 { fields.append("\(Self.quoted(key + "s")):[\(values.map(Self.quoted).joined(separator: ","))]") }
    }

    /// The line's JSON object, without its newline.
    public var json: String { "{" + fields.joined(separator: ",") + "}" }

    /// The line a fix that cannot be followed gets in a stream of lines: `{"line":N,"error":"…"}`.
    public static func refusal(line: Int, _ error: FixError) -> String {
        "{\"line\":\(line),\"error\":\(quoted(error.message))}"
    }

    /// `value` rounded to `places` decimals, spelled without a fraction when it is whole.
    private static func number(_ value: Double, _ places: Int) -> String {
        var scale = 1.0
        for _ in 0..<places { scale *= 10 }
        let rounded = (value * scale).rounded() / scale
        return rounded == rounded.rounded() && abs(rounded) < 1e15 ? String(Int(rounded)) : String(rounded)
    }

    /// A JSON string: messages quote what they read, which may hold any character.
    private static func quoted(_ text: String) -> String {
        // A string value always encodes; the fallback only keeps this total.
        (try? MarkerSpec.JSONValue.string(text).bytes(MarkerSpec.JSONValue.Formatting(withoutEscapingSlashes: true)))
            .map { String(decoding: $0, as: UTF8.self) } ?? "\"\""
    }
}

extension Marker {
    /// The countdown marker nearest `remaining` metres to go: the multiple of the interval
    /// `route --countdown` stands there (at least one interval, as the route's last marker).
    public static func countdown(remaining: Double, unit: Marker.Unit, interval: MarkerInterval, mark: Label.DecimalMark) throws(SpecError) -> Marker {
        let step = MarkerPlan.stepLength(unit: unit, interval: interval)
        let steps = max(1, Int(min((remaining / step).rounded(), 1e9)))
        return try Marker(kind: .countdown, distance: interval.reading(step: steps), unit: unit, mark: mark, precision: interval.precision)
    }
}
