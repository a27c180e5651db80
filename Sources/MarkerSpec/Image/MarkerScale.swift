/// Pixels per point: iOS's @1x, @2x, @3x and Android's mdpi (1), hdpi (1.5), xhdpi (2), xxhdpi (3)
/// and xxxhdpi (4).
///
/// Held in halves, so that 1.5 is exact and compares, hashes and names the same everywhere.
public struct MarkerScale: Sendable, Hashable, Comparable, CustomStringConvertible, ExpressibleByIntegerLiteral {
    /// The scale in halves of a pixel per point: 3 for 1.5.
    public let halves: Int

    /// Every scale markerpaint draws, smallest first.
    public static let all: [MarkerScale] = [1, MarkerScale(halves: 3), 2, 3, 4]

    /// Android's hdpi: 1.5 pixels per point.
    public static let oneAndAHalf = MarkerScale(halves: 3)

    /// The sentence that lists `all`, for messages: `1, 1.5, 2, 3 or 4`.
    public static let choices = all.dropLast().map(\.description).joined(separator: ", ") + " or " + (all.last?.description ?? "")

    private init(halves: Int) { self.halves = halves }

    /// A whole scale, as code and tests write it (`scale: 2`); whether it is drawn is `MarkerRequest`'s check.
    public init(integerLiteral value: Int) { halves = value * 2 }

    /// The scale `text` writes, in its one spelling: `1`, `1.5`, `2`, `3` or `4`.
    public init(_ text: some StringProtocol) throws(SpecError) {
        guard let scale = Self.all.first(where: { $0.description == text }) else {
            throw SpecError(.scale, "must be \(Self.choices) (got \(SpecError.quoted(String(text))))")
        }
        self = scale
    }

    /// The scale of `factor` pixels per point, if markerpaint draws it (JSON writes 1.5 as a number).
    public init?(exactly factor: Double) {
        guard let scale = Self.all.first(where: { $0.factor == factor }) else { return nil }
        self = scale
    }

    /// Pixels per point.
    public var factor: Double { Double(halves) / 2 }

    /// The scale as a whole number of pixels per point, if it is one (map SDKs' sprite ratios are).
    public var whole: Int? { halves.isMultiple(of: 2) ? halves / 2 : nil }

    /// `1.5`, `2`.
    public var description: String { whole.map(String.init) ?? "\(halves / 2).5" }

    public static func < (lhs: MarkerScale, rhs: MarkerScale) -> Bool { lhs.halves < rhs.halves }
}
