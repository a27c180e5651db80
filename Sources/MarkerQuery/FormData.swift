/// A `multipart/form-data` body (RFC 7578), as `curl -F` and a browser's `FormData` send it, read
/// into its named parts. Only the names asked for are taken, each once; anything else is refused
/// with a sentence, never guessed at.
public struct FormData: Sendable {
    /// One field of the form.
    public struct Part: Sendable, Equatable {
        public var name: String
        /// The file name the client gave, if the field is a file (`curl -F route=@ride.gpx`).
        public var fileName: String?
        public var bytes: [UInt8]
    }

    /// The parts in the order sent.
    public let parts: [Part]

    /// The longest boundary RFC 2046 allows.
    static let maximumBoundaryLength = 70
    /// The most bytes of headers one part may have.
    static let maximumHeaderBytes = 8192

    /// The part named `name`, if one was sent.
    public subscript(name: String) -> Part? { parts.first { $0.name == name } }

    /// Reads `body` as the form `contentType` (the request's `Content-Type`) says it is, taking
    /// only parts named in `names`.
    /// - Throws: `QueryError` for the `body`: not a form, no boundary, a part unnamed, unknown or
    ///   sent twice, headers too long, or a body cut short of its closing boundary.
    public init(_ body: [UInt8], contentType: String?, names: [String]) throws(QueryError) {
        let boundary = try Self.boundary(contentType)
        let delimiter = Array("\r\n--".utf8) + Array(boundary.utf8)
        // The first delimiter may open the body without the line end before it.
        var position: Int
        if body.starts(with: delimiter.dropFirst(2)) {
            position = delimiter.count - 2
        } else if let found = Self.find(delimiter, in: body, from: 0) {
            position = found + delimiter.count
        } else {
            throw Self.error("the body holds no boundary \(QueryParameters.quoted(boundary)) (is it multipart/form-data?)")
        }
        var parts: [Part] = []
        while true {
            // After a delimiter: "--" closes the form; otherwise optional padding and a line end open a part.
            if body[position...].starts(with: [0x2D, 0x2D]) { break }
            while position < body.endIndex, body[position] == 0x20 || body[position] == 0x09 { position += 1 }
            guard body[position...].starts(with: [0x0D, 0x0A]) else {
                throw Self.error("a boundary line is followed by more than spaces")
            }
            position += 2
            guard let headerEnd = Self.find([0x0D, 0x0A, 0x0D, 0x0A], in: body, from: position - 2, within: Self.maximumHeaderBytes + 4) else {
                throw Self.error("a part's headers do not end within \(Self.maximumHeaderBytes) bytes (is the body cut short?)")
            }
            let (name, fileName) = try Self.disposition(Array(body[position..<(headerEnd + 2)]))
            guard names.contains(name) else {
                throw Self.error("the form has a part \(QueryParameters.quoted(name)); it takes \(names.joined(separator: " and "))")
            }
            guard !parts.contains(where: { $0.name == name }) else {
                throw Self.error("the form has more than one part \(QueryParameters.quoted(name))")
            }
            let contentStart = headerEnd + 4
            guard let contentEnd = Self.find(delimiter, in: body, from: contentStart) else {
                throw Self.error("the part \(QueryParameters.quoted(name)) has no closing boundary (is the body cut short?)")
            }
            parts.append(Part(name: name, fileName: fileName, bytes: Array(body[contentStart..<contentEnd])))
            position = contentEnd + delimiter.count
        }
        self.parts = parts
    }

    /// The boundary a `multipart/form-data` content type names.
    private static func boundary(_ contentType: String?) throws(QueryError) -> String {
        guard let contentType else { throw error("send the route and fixes as multipart/form-data (curl -F route=@ride.gpx -F fixes=@fixes.csv)") }
        let fields = contentType.split(separator: ";").map { $0.trimmingSpaces() }
        guard fields.first?.lowercased() == "multipart/form-data" else {
            throw error("its Content-Type is \(QueryParameters.quoted(fields.first ?? "")), not multipart/form-data (curl -F route=@ride.gpx -F fixes=@fixes.csv)")
        }
        for field in fields.dropFirst() {
            guard let equals = field.firstIndex(of: "="), field[..<equals].trimmingSpaces().lowercased() == "boundary" else { continue }
            var value = field[field.index(after: equals)...].trimmingSpaces()
            if value.count >= 2, value.hasPrefix("\""), value.hasSuffix("\"") { value = value.dropFirst().dropLast() }
            let allowed = value.utf8.allSatisfy { byte in
                (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
                    || Array("'()+_,-./:=? ".utf8).contains(byte)
            }
            guard (1...maximumBoundaryLength).contains(value.utf8.count), allowed, value.last != " " else {
                throw error("the multipart boundary must be 1 to \(maximumBoundaryLength) letters, digits or '()+_,-./:=? (not ending in a space)")
            }
            return String(value)
        }
        throw error("the multipart/form-data content type names no boundary")
    }

    /// The `name` and `filename` of a part's `Content-Disposition: form-data` header.
    private static func disposition(_ headers: [UInt8]) throws(QueryError) -> (String, String?) {
        var name: String?
        var fileName: String?
        for rawLine in headers.split(separator: 0x0A) {
            let line = rawLine.last == 0x0D ? rawLine.dropLast() : rawLine
            guard let colon = line.firstIndex(of: UInt8(ascii: ":")),
                String(decoding: line[..<colon], as: UTF8.self).trimmingSpaces().lowercased() == "content-disposition"
            else { continue }
            let parameters = Self.parameters(line[(colon + 1)...])
            guard parameters.first?.key.lowercased() == "form-data" else {
                throw error("a part's Content-Disposition is not form-data")
            }
            for (key, value) in parameters.dropFirst() {
                switch key.lowercased() {
                case "name": name = value
                case "filename": fileName = value
                default: break
                }
            }
        }
        guard let name else { throw error("a part has no Content-Disposition name") }
        return (name, fileName)
    }

    /// `form-data; name="route"; filename="a;b.gpx"` as keys and values, quotes and their
    /// backslash escapes read; the first is the disposition itself, without a value. Read byte by
    /// byte, since every delimiter is ASCII: a backslash is never taken into a character with what follows.
    private static func parameters(_ text: ArraySlice<UInt8>) -> [(key: String, value: String)] {
        let (quote, backslash, semicolon, equals) = (UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: ";"), UInt8(ascii: "="))
        func trimmed(_ bytes: some Collection<UInt8>) -> String { String(String(decoding: bytes, as: UTF8.self).trimmingSpaces()) }
        var result: [(key: String, value: String)] = []
        var index = text.startIndex
        while index < text.endIndex {
            while index < text.endIndex, [0x20, 0x09, semicolon].contains(text[index]) { index += 1 }
            let keyStart = index
            while index < text.endIndex, text[index] != equals, text[index] != semicolon { index += 1 }
            let key = trimmed(text[keyStart..<index])
            var value: [UInt8] = []
            var quoted = false
            if index < text.endIndex, text[index] == equals {
                index += 1
                while index < text.endIndex, text[index] == 0x20 || text[index] == 0x09 { index += 1 }
                if index < text.endIndex, text[index] == quote {
                    quoted = true
                    index += 1
                    while index < text.endIndex, text[index] != quote {
                        if text[index] == backslash, index + 1 < text.endIndex { index += 1 }
                        value.append(text[index])
                        index += 1
                    }
                    index += 1
                } else {
                    while index < text.endIndex, text[index] != semicolon {
                        value.append(text[index])
                        index += 1
                    }
                }
            }
            if !key.isEmpty { result.append((key, quoted ? String(decoding: value, as: UTF8.self) : trimmed(value))) }
        }
        return result
    }

    /// Where `pattern` first starts in `bytes` at or after `start` (and, given `within`, ending
    /// within that many bytes of it). Each candidate costs at most the pattern's length, and the
    /// patterns are short (a boundary line, at most 74 bytes), so the search stays linear.
    private static func find(_ pattern: [UInt8], in bytes: [UInt8], from start: Int, within: Int? = nil) -> Int? {
        guard let first = pattern.first, start >= 0 else { return nil }
        let limit = within.map { min(bytes.count, start + $0) } ?? bytes.count
        var index = start
        while index + pattern.count <= limit {
            guard let candidate = bytes[index..<(limit - pattern.count + 1)].firstIndex(of: first) else { return nil }
            if bytes[candidate..<(candidate + pattern.count)].elementsEqual(pattern) { return candidate }
            index = candidate + 1
        }
        return nil
    }

    private static func error(_ problem: String) -> QueryError {
        QueryError(parameter: "body", message: "body: \(problem)")
    }
}

extension StringProtocol {
    /// Without spaces and tabs at either end.
    func trimmingSpaces() -> Substring {
        let text = self[...]
        let start = text.firstIndex { $0 != " " && $0 != "\t" } ?? text.endIndex
        let end = text.lastIndex { $0 != " " && $0 != "\t" }.map { text.index(after: $0) } ?? start
        return Substring(text[start..<end])
    }
}
