/// The spacing of a route's distance markers, in tenths of the unit: `--interval 0.5` puts one
/// every half kilometre, `--interval 5` one every five.
///
/// Tenths, because a label shows at most one decimal: an interval of 0.25 would need labels
/// (`0.25km`) that MARKER.md does not draw. Held as a whole number of tenths so that placing the
/// k-th marker is exact arithmetic, not a sum of rounded steps.
public struct MarkerInterval: Sendable, Hashable, CustomStringConvertible {
    /// The interval in tenths of the unit: 10 for one unit.
    public let tenths: Int

    /// One unit, MARKER.md's spacing.
    public static let one = MarkerInterval(checkedTenths: 10)
    /// The widest interval: a marker every 1000 units still shows a 100,000-unit route with 100.
    public static let maximumTenths = 10_000

    private init(checkedTenths: Int) { tenths = checkedTenths }

    /// An interval of `tenths` tenths of the unit, from 1 (0.1) to `maximumTenths` (1000).
    public init(tenths: Int) throws(SpecError) {
        guard (1...Self.maximumTenths).contains(tenths) else {
            throw SpecError(.interval, "must be from 0.1 to \(Self.maximumTenths / 10) (got \(Label.plain(Double(tenths) / 10)))")
        }
        self.tenths = tenths
    }

    /// The interval `text` writes, a plain decimal such as `0.5`, `5` or `2.5`.
    public init(_ text: String) throws(SpecError) {
        let parts = text.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        let digits: (Substring) -> Bool = { !$0.isEmpty && $0.utf8.allSatisfy { (0x30...0x39).contains($0) } }
        // At most 7 digits before the point keeps the arithmetic far inside Int; larger is refused as too wide anyway.
        guard text.utf8.count <= 12, let whole = parts.first, digits(whole), whole.utf8.count <= 7,
            parts.count == 1 || digits(parts[1]), let wholeValue = Int(whole)
        else {
            throw SpecError(.interval, "must be a decimal number such as 0.5, 1 or 5 (got \(SpecError.quoted(text)))")
        }
        let fraction: Substring = parts.count == 2 ? parts[1] : ""
        // Trailing zeros say nothing (`0.50` is 0.5); any other second decimal is finer than a label shows.
        let significant = fraction.reversed().drop { $0 == "0" }
        guard significant.count <= 1 else {
            throw SpecError(.interval, "must be a multiple of 0.1, since labels show tenths (got \(SpecError.quoted(text)))")
        }
        let tenth = significant.first.map { Int($0.asciiValue ?? 0x30) - 0x30 } ?? 0
        try self.init(tenths: wholeValue * 10 + tenth)
    }

    /// The interval `text` writes, or one unit if there is none (an option or field left out).
    public init(named text: String?) throws(SpecError) {
        self = try text.map { (text) throws(SpecError) in try MarkerInterval(text) } ?? .one
    }

    /// The interval in units, as a manifest or route document records it (`0.5`).
    public var units: Double { Double(tenths) / 10 }

    /// Whether markers fall on whole units only: labels then follow MARKER.md's rule (whole from 10).
    public var isWhole: Bool { tenths.isMultiple(of: 10) }

    /// How labels along a route with this interval are written: with a tenth at any length when the
    /// interval has one (`10.5km`, which MARKER.md's rule would round to `11km`, the next marker's label).
    public var precision: Label.Precision { isWhole ? .standard : .tenths }

    /// The reading of the `step`-th marker, in units.
    public func reading(step: Int) -> Double { Double(step * tenths) / 10 }

    /// `0.5`, `5`.
    public var description: String { isWhole ? String(tenths / 10) : "\(tenths / 10).\(tenths % 10)" }
}
