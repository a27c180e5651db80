import Foundation
import Hummingbird
import MarkerRender

/// A request's query, decoded and checked: every name known to the endpoint and given at most once,
/// so that a typo or a second `distance=` is a `400` rather than silently ignored.
struct QueryParameters: Sendable {
    private let values: [String: String]

    /// Reads `query` (`a=1&b=2`, percent-encoded, `+` for space) for an endpoint taking `allowed`.
    init(_ query: String?, allowed: [String]) throws(ServiceError) {
        var values: [String: String] = [:]
        for pair in (query ?? "").split(separator: "&", omittingEmptySubsequences: true) {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard let name = Self.decode(parts[0]) else {
                throw ServiceError(.badRequest, "query: \(Self.quoted(parts[0])) is not valid percent-encoding")
            }
            guard allowed.contains(name) else {
                throw ServiceError.badParameter(name, "unknown; this endpoint takes \(allowed.joined(separator: ", "))")
            }
            guard values[name] == nil else {
                throw ServiceError.badParameter(name, "given more than once")
            }
            let raw = parts.count > 1 ? parts[1] : ""
            guard let value = Self.decode(raw) else {
                throw ServiceError.badParameter(name, "\(Self.quoted(raw)) is not valid percent-encoding")
            }
            values[name] = value
        }
        self.values = values
    }

    subscript(name: String) -> String? { values[name] }

    /// One of `choices` (default `fallback` when absent), by its raw value.
    func choice<Choice: RawRepresentable>(_ name: String, default fallback: Choice) throws(ServiceError) -> Choice
    where Choice: CaseIterable, Choice.RawValue == String {
        guard let text = values[name] else { return fallback }
        guard let choice = Choice(rawValue: text) else {
            let names = Choice.allCases.map(\.rawValue).joined(separator: ", ")
            throw ServiceError.badParameter(name, "must be one of \(names), not \(Self.quoted(text))")
        }
        return choice
    }

    /// A pixel scale: 1, 2 or 3 (default 2), written as a whole number.
    func scale(_ name: String = "scale") throws(ServiceError) -> Int {
        guard let text = values[name] else { return 2 }
        guard let scale = Int(text), MarkerRequest.scales.contains(scale), String(scale) == text else {
            throw ServiceError.badParameter(name, "must be 1, 2 or 3, not \(Self.quoted(text))")
        }
        return scale
    }

    /// A built-in theme by name (default day).
    func theme(_ name: String = "theme") throws(ServiceError) -> Theme {
        guard let text = values[name] else { return .day }
        guard let theme = Theme.named(text) else {
            throw ServiceError.badParameter(name, "must be day or night, not \(Self.quoted(text))")
        }
        return theme
    }

    /// A plain decimal number (`123`, `7.5`, `-3`), or nil when absent. Exponents, `nan`, `inf`
    /// and hex floats, which `Double.init` would accept, are refused: a URL should say one thing one way.
    func decimal(_ name: String) throws(ServiceError) -> Double? {
        guard let text = values[name] else { return nil }
        guard Self.isPlainDecimal(text), let value = Double(text), value.isFinite else {
            throw ServiceError.badParameter(name, "must be a decimal number such as 123 or 7.5, not \(Self.quoted(text))")
        }
        return value
    }

    /// `true`/`false` (also `1`/`0`), default false.
    func flag(_ name: String) throws(ServiceError) -> Bool {
        switch values[name] {
        case nil, "false", "0": false
        case "true", "1": true
        case let text?: throw ServiceError.badParameter(name, "must be true or false, not \(Self.quoted(text))")
        }
    }

    private static func isPlainDecimal(_ text: String) -> Bool {
        let digits = text.hasPrefix("-") ? text.dropFirst() : Substring(text)
        let parts = digits.split(separator: ".", omittingEmptySubsequences: false)
        return (1...2).contains(parts.count)
            && parts.allSatisfy { !$0.isEmpty && $0.allSatisfy { ("0"..."9").contains($0) } }
    }

    private static func decode(_ text: Substring) -> String? {
        String(text).replacingOccurrences(of: "+", with: " ").removingPercentEncoding
    }

    /// A client's value for an error message: quoted, and cut short so a huge value cannot bloat the reply.
    static func quoted(_ text: some StringProtocol) -> String {
        let limit = 40
        let shown = text.count > limit ? text.prefix(limit) + "…" : String(text)
        return "\"\(shown)\""
    }
}
