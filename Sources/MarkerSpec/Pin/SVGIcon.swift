/// What a user's SVG icon must be before it is drawn: small, and self-contained.
///
/// An icon is paths. One that names a file, a URL or an entity could make the drawing read the
/// disk or the network, or expand without bound; it is refused before any parser sees it.
public enum SVGIcon {
    /// The largest icon file read: Maki's icons are under 2 KB.
    public static let maximumBytes = 256 << 10

    /// - Throws: `SpecError` (`icon`) saying what is wrong.
    public static func check(_ document: [UInt8]) throws(SpecError) {
        guard document.count <= maximumBytes else {
            throw SpecError(.icon, "file is \(document.count) bytes; an SVG icon may be at most \(maximumBytes)")
        }
        let text = String(decoding: document, as: UTF8.self).lowercased()
        guard text.contains("<svg") else { throw SpecError(.icon, "file is not an SVG (no <svg> element)") }
        for marker in ["<!entity", "<xi:include", "@import"] where text.contains(marker) {
            throw SpecError(.icon, "file has \(marker); an SVG icon must be self-contained")
        }
        if let doctype = text.firstRange(of: "<!doctype") {
            let declaration = text[doctype.upperBound...].prefix(while: { $0 != ">" })
            if declaration.contains("system") || declaration.contains("public") {
                throw SpecError(.icon, "file's DOCTYPE names an outside document; an SVG icon must be self-contained")
            }
        }
        for reference in references(in: text) where !reference.hasPrefix("#") {
            throw SpecError(.icon, "file refers to \(SpecError.quoted(String(reference.prefix(80)))); an SVG icon must be self-contained (paths only)")
        }
    }

    /// Every `href` value and `url(…)` argument in `text`, as written.
    static func references(in text: String) -> [Substring] {
        var found: [Substring] = []
        var rest = text[...]
        while let href = rest.firstRange(of: "href") {
            var after = rest[href.upperBound...].drop(while: { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" })
            if after.first == "=" {
                after = after.dropFirst().drop(while: { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" })
                if let quote = after.first, quote == "\"" || quote == "'" {
                    found.append(after.dropFirst().prefix(while: { $0 != quote }).drop(while: { $0 == " " }))
                }
            }
            rest = rest[href.upperBound...]
        }
        rest = text[...]
        while let url = rest.firstRange(of: "url(") {
            let argument = rest[url.upperBound...].drop(while: { $0 == " " || $0 == "\"" || $0 == "'" })
            found.append(argument.prefix(while: { $0 != ")" && $0 != "\"" && $0 != "'" }))
            rest = rest[url.upperBound...]
        }
        return found
    }
}
