public import MarkerSpec

/// A request's query, decoded and checked: every name known to the endpoint and given at most once
/// (but the few an endpoint lets repeat, such as a callout's `line`), so that a typo or a second
/// `distance=` is refused rather than silently ignored.
public struct QueryParameters: Sendable {
    private let values: [String: String]
    private let repeated: [String: [String]]

    /// The most name=value pairs a query may hold; the endpoints take five at most.
    public static let maximumPairs = 32

    /// Reads `query` (`a=1&b=2`, percent-encoded, `+` for space) for an endpoint taking `allowed`.
    public init(_ query: String?, allowed: [String], repeatable: [String] = []) throws(QueryError) {
        var values: [String: String] = [:]
        var repeated: [String: [String]] = [:]
        let pairs = (query ?? "").split(separator: "&", omittingEmptySubsequences: true)
        guard pairs.count <= Self.maximumPairs else {
            throw QueryError(parameter: nil, message: "query: \(pairs.count) parameters; this endpoint takes \(allowed.joined(separator: ", "))")
        }
        for pair in pairs {
            let rawName = pair.prefix { $0 != "=" }
            let rawValue = pair.dropFirst(rawName.count + 1)
            guard let name = Self.decode(rawName) else {
                throw QueryError(parameter: nil, message: "query: \(Self.quoted(rawName)) is not valid percent-encoding")
            }
            guard allowed.contains(name) else {
                throw QueryError.badParameter(name, "unknown; this endpoint takes \(allowed.joined(separator: ", "))")
            }
            guard values[name] == nil || repeatable.contains(name) else {
                throw QueryError.badParameter(name, "given more than once")
            }
            guard let value = Self.decode(rawValue) else {
                throw QueryError.badParameter(name, "\(Self.quoted(rawValue)) is not valid percent-encoding")
            }
            if values[name] == nil { values[name] = value }
            if repeatable.contains(name) { repeated[name, default: []].append(value) }
        }
        self.values = values
        self.repeated = repeated
    }

    /// Every value of a repeatable name, in order; empty when absent.
    public func all(_ name: String) -> [String] { repeated[name] ?? [] }

    public subscript(name: String) -> String? { values[name] }

    /// One of `choices` (default `fallback` when absent), by its raw value.
    public func choice<Choice: RawRepresentable>(_ name: String, default fallback: Choice) throws(QueryError) -> Choice
    where Choice: CaseIterable, Choice.RawValue == String {
        guard let text = values[name] else { return fallback }
        guard let choice = Choice(rawValue: text) else {
            let names = Choice.allCases.map(\.rawValue).joined(separator: ", ")
            throw QueryError.badParameter(name, "must be one of \(names), not \(Self.quoted(text))")
        }
        return choice
    }

    /// A pixel scale: 1, 1.5, 2, 3 or 4 (default 2), in its one spelling.
    public func scale(_ name: String = "scale") throws(QueryError) -> MarkerScale {
        guard let text = values[name] else { return 2 }
        guard let scale = try? MarkerScale(text) else {
            throw QueryError.badParameter(name, "must be \(MarkerScale.choices), not \(Self.quoted(text))")
        }
        return scale
    }

    /// `themes=day,night`: themes by name, each named once; `fallback` when absent.
    public func themes(_ name: String = "themes", default fallback: [Theme]) throws(QueryError) -> [Theme] {
        guard let text = values[name] else { return fallback }
        var themes: [Theme] = []
        for part in text.split(separator: ",", omittingEmptySubsequences: false).map(String.init) {
            guard let theme = Theme.named(part) else {
                throw QueryError.badParameter(name, "must be day, night or day,night, not \(Self.quoted(text))")
            }
            guard !themes.contains(theme) else {
                throw QueryError.badParameter(name, "names \(Self.quoted(part)) more than once")
            }
            themes.append(theme)
        }
        return themes
    }

    /// A built-in theme by name (default day).
    public func theme(_ name: String = "theme") throws(QueryError) -> Theme {
        guard let text = values[name] else { return .day }
        guard let theme = Theme.named(text) else {
            throw QueryError.badParameter(name, "must be day or night, not \(Self.quoted(text))")
        }
        return theme
    }

    /// The locale labels read in (default: a decimal point), e.g. `de` for `7,5km`.
    public func locale(_ name: String = "locale") throws(QueryError) -> LabelLocale {
        do { return try LabelLocale(named: values[name]) } catch { throw QueryError.badParameter(name, error.problem) }
    }

    /// The spacing of distance markers in the unit (default 1), a multiple of 0.1 such as `0.5` or `5`.
    public func interval(_ name: String = "interval") throws(QueryError) -> MarkerInterval {
        do { return try MarkerInterval(named: values[name]) } catch { throw QueryError.badParameter(name, error.problem) }
    }

    /// A plain decimal number (`123`, `7.5`, `-3`), or nil when absent. Exponents, `nan`, `inf`
    /// and hex floats, which `Double.init` would accept, are refused: a URL should say one thing one way.
    public func decimal(_ name: String) throws(QueryError) -> Double? {
        guard let text = values[name] else { return nil }
        guard Self.isPlainDecimal(text), let value = Double(text), value.isFinite else {
            throw QueryError.badParameter(name, "must be a decimal number such as 123 or 7.5, not \(Self.quoted(text))")
        }
        return value
    }

    /// `true`/`false` (also `1`/`0`), `default` when absent.
    public func flag(_ name: String, default: Bool = false) throws(QueryError) -> Bool {
        switch values[name] {
        case nil: `default`
        case "false", "0": false
        case "true", "1": true
        case let text?: throw QueryError.badParameter(name, "must be true or false, not \(Self.quoted(text))")
        }
    }

    private static func isPlainDecimal(_ text: String) -> Bool {
        let digits = text.hasPrefix("-") ? text.dropFirst() : Substring(text)
        let parts = digits.split(separator: ".", omittingEmptySubsequences: false)
        return (1...2).contains(parts.count)
            && parts.allSatisfy { !$0.isEmpty && $0.allSatisfy { ("0"..."9").contains($0) } }
    }

    /// Percent-decodes a query part (where `+` is a space, unless `plusIsSpace` is false as in a
    /// path); nil if an escape is broken or the bytes are not UTF-8.
    public static func decode(_ text: Substring, plusIsSpace: Bool = true) -> String? {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count)
        var iterator = text.utf8.makeIterator()
        while let byte = iterator.next() {
            switch byte {
            case UInt8(ascii: "+") where plusIsSpace: bytes.append(UInt8(ascii: " "))
            case UInt8(ascii: "%"):
                guard let high = iterator.next().flatMap(hexValue), let low = iterator.next().flatMap(hexValue) else { return nil }
                bytes.append(high << 4 | low)
            default: bytes.append(byte)
            }
        }
        return String(validating: bytes, as: UTF8.self)
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    /// A client's value for an error message: quoted, and cut short so a huge value cannot bloat the reply.
    public static func quoted(_ text: some StringProtocol) -> String {
        let limit = 40
        let shown = text.count > limit ? text.prefix(limit) + "…" : String(text)
        return "\"\(shown)\""
    }
}
