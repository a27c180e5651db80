public import MarkerSpec
public import RouteModel
import RoutePlacement

/// One fix's progress as a line of NDJSON, as `markerpaint progress` and `POST /v1/progress` write
/// it: its fields in reading order (fix, line, lon, lat, distance, remaining, …), then what the
/// caller adds (the countdown marker's names or URLs).
public struct ProgressLine: Sendable {
    /// The object so far, without its closing brace: one string grown in place, since a line is
    /// written per fix and a replay writes hundreds of thousands.
    private var text: String

    /// The fields every line has: the fix's number among those followed, its input line, the
    /// snapped place (7 decimals), distances in `unit` (4 decimals), offset and threshold in metres
    /// (1 decimal), onRoute and, when something happened, the event.
    public init(_ progress: RouteProgress, fix: Int, line: Int, unit: Marker.Unit) {
        text = "{\"fix\":"
        text.reserveCapacity(512)
        text += String(fix)
        text += ",\"line\":" + String(line)
        text += ",\"lon\":" + Self.number(progress.snapped.longitude, 7)
        text += ",\"lat\":" + Self.number(progress.snapped.latitude, 7)
        text += ",\"distance\":" + Self.number(progress.distance / unit.metres, 4)
        text += ",\"remaining\":" + Self.number(progress.remaining / unit.metres, 4)
        text += ",\"stage\":" + String(progress.stage)
        text += ",\"stageDistance\":" + Self.number(progress.stageDistance / unit.metres, 4)
        text += ",\"stageRemaining\":" + Self.number(progress.stageRemaining / unit.metres, 4)
        text += ",\"offset\":" + Self.number(progress.offset, 1)
        text += progress.onRoute ? ",\"onRoute\":true" : ",\"onRoute\":false"
        text += ",\"threshold\":" + Self.number(progress.threshold, 1)
        if let event = progress.event { text += ",\"event\":" + Self.quoted(event.rawValue) }
    }

    /// Adds `key` with the first of `values` and, when there are more (one per theme), `key` + "s"
    /// with them all; nothing when `values` is empty.
    public mutating func append(_ key: String, _ values: [String]) {
        guard let first = values.first else { return }
        text += "," + Self.quoted(key) + ":" + Self.quoted(first)
        if values.count > 1 { text += "," + Self.quoted(key + "s") + ":[" + values.map(Self.quoted).joined(separator: ",") + "]" }
    }

    /// The line's JSON object, without its newline.
    public var json: String { text + "}" }

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
        try countdown(steps: countdownSteps(remaining: remaining, unit: unit, interval: interval), unit: unit, interval: interval, mark: mark)
    }

    /// How many intervals the countdown marker nearest `remaining` metres to go reads (at least one).
    public static func countdownSteps(remaining: Double, unit: Marker.Unit, interval: MarkerInterval) -> Int {
        max(1, Int(min((remaining / MarkerPlan.stepLength(unit: unit, interval: interval)).rounded(), 1e9)))
    }

    /// The countdown marker reading `steps` intervals.
    public static func countdown(steps: Int, unit: Marker.Unit, interval: MarkerInterval, mark: Label.DecimalMark) throws(SpecError) -> Marker {
        try Marker(kind: .countdown, distance: interval.reading(step: steps), unit: unit, mark: mark, precision: interval.precision)
    }
}
