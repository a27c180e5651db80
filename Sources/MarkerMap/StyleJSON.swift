public import MarkerSpec

extension JSONValue {
    /// The value as a style file holds it: pretty-printed, keys sorted (so equal styles are equal
    /// bytes), slashes unescaped.
    public func styleBytes() throws(MapError) -> [UInt8] {
        do {
            return try bytes(JSONValue.Formatting(prettyPrinted: true, withoutEscapingSlashes: true))
        } catch {
            throw MapError(.encoding, "cannot encode a style value: \(error)")
        }
    }
}
