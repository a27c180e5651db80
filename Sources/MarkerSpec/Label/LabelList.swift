/// The readings a `set --labels` list names: numbers and ranges, `0-200`, `0-10,15,20-50`.
///
/// A range steps by the marker interval from its first number to its last (`0-2` at 0.5 is 0, 0.5,
/// 1, 1.5, 2). Numbers are decimals with at most one decimal place, as labels show. The count is
/// worked out from the ranges before any reading is listed, so a huge range is refused, not built.
public struct LabelList: Sendable, Equatable {
    /// The readings, in the order the list gives them, each once.
    public let readings: [Double]

    /// The most readings one list may name.
    public static let maximumCount = 10_000

    /// The readings `text` lists, with ranges stepping by `interval`.
    public init(_ text: String, interval: MarkerInterval = .one) throws(SpecError) {
        var spans: [(first: Int, last: Int)] = []
        var count = 0
        for item in text.split(separator: ",", omittingEmptySubsequences: false) {
            let ends = item.split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false)
            let first = try Self.tenths(ends[0], in: item)
            let last = ends.count == 2 ? try Self.tenths(ends[1], in: item) : first
            guard last >= first else {
                throw SpecError(.labels, "range \(SpecError.quoted(String(item))) runs backwards; write the smaller number first")
            }
            count += (last - first) / interval.tenths + 1
            guard count <= Self.maximumCount else {
                throw SpecError(.labels, "would name more than \(Self.maximumCount) labels; give a shorter list or a wider --interval")
            }
            spans.append((first, last))
        }
        var seen: Set<Int> = []
        var readings: [Double] = []
        readings.reserveCapacity(count)
        for span in spans {
            for tenths in Swift.stride(from: span.first, through: span.last, by: interval.tenths) where seen.insert(tenths).inserted {
                readings.append(Double(tenths) / 10)
            }
        }
        self.readings = readings
    }

    /// A number of the list in tenths: digits with at most one decimal, up to `Marker.maximumDistance`.
    private static func tenths(_ text: Substring, in item: Substring) throws(SpecError) -> Int {
        let parts = text.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        let isDigits: (Substring) -> Bool = { !$0.isEmpty && $0.utf8.count <= 6 && $0.utf8.allSatisfy { (0x30...0x39).contains($0) } }
        guard isDigits(parts[0]), parts.count == 1 || (parts[1].utf8.count == 1 && isDigits(parts[1])), let whole = Int(parts[0]),
            let tenth = parts.count == 2 ? Int(parts[1]) : 0
        else {
            throw SpecError(
                .labels, "must be numbers and ranges such as 0-200,250 or 7.5, with at most one decimal (got \(SpecError.quoted(String(item))))")
        }
        let value = whole * 10 + tenth
        guard Double(value) / 10 <= Marker.maximumDistance else {
            throw SpecError(.labels, "\(SpecError.quoted(String(text))) is more than \(Label.plain(Marker.maximumDistance)), the largest label")
        }
        return value
    }
}
