import RouteModel

/// Hears what `PlainXMLScanner` reads, in document order.
protocol PlainXMLHandler: AnyObject {
    /// Whether the text about to be read is wanted; it is only decoded when it is.
    var wantsText: Bool { get }
    /// A start tag; a handler throws to give up on the fast reading (expat then reads the document).
    func start(_ tag: PlainXMLScanner.Tag) throws(RouteError)
    func end()
    /// Character data with line ends and references decoded, in pieces.
    func text(_ bytes: UnsafeBufferPointer<UInt8>)
}

/// Reads the plain UTF-8 XML nearly every GPX file is, in one pass over its bytes, or says it
/// cannot vouch for the document.
///
/// expat reads a large GPX at ~55 MB/s here (with handlers that do nothing); this scanner reads
/// it at ~225 MB/s, points included. It accepts only what it checks in full to be well-formed: UTF-8, an optional XML
/// declaration of version 1.0, ASCII names, attributes, comments, CDATA sections, the five
/// predefined entities and character references. Anything else returns false: a DOCTYPE, a
/// processing instruction, another encoding, a non-ASCII name, more than 32 attributes on one
/// element, and every error. The caller then reads the same bytes with expat, whose verdict and
/// message stand, so a document is read at most twice and never less strictly. A document this
/// accepts must read the same under expat; the fuzzing build checks exactly that on every input.
struct PlainXMLScanner {
    /// An element's name and attributes, valid only during `PlainXMLHandler.start`.
    struct Tag: XMLTagReading {
        struct Attribute {
            var name: Range<Int>
            var value: Range<Int>
            /// The value has no reference, tab or line end: its bytes are its normalised value.
            var isVerbatim: Bool
            /// The value when it is wholly a plain decimal, read while scanning it.
            var number: Double?
        }

        fileprivate let bytes: UnsafeBufferPointer<UInt8>
        fileprivate let name: Range<Int>
        fileprivate let attributes: UnsafeBufferPointer<Attribute>

        func hasLocalName(_ expected: StaticString) -> Bool {
            var local = name.upperBound
            while local > name.lowerBound, bytes[local - 1] != UInt8(ascii: ":") { local -= 1 }
            return PlainXMLScanner.bytes(bytes, local..<name.upperBound, equal: expected)
        }

        var qualifiedName: String { String(decoding: UnsafeBufferPointer(rebasing: bytes[name]), as: UTF8.self) }

        func value(of attribute: StaticString) -> String? {
            guard let found = self.attribute(attribute) else { return nil }
            let raw = UnsafeBufferPointer(rebasing: bytes[found.value])
            guard !found.isVerbatim else { return String(decoding: raw, as: UTF8.self) }
            // Attribute-value normalisation (XML 1.0 §3.3.3): a line end (CR LF counts as one) or
            // tab becomes a space; references become their characters and are not normalised.
            var decoded: [UInt8] = []
            var index = 0
            while index < raw.count {
                let byte = raw[index]
                if byte == UInt8(ascii: "&") {
                    guard let scalar = try? PlainXMLScanner.reference(in: raw, at: &index) else { return nil }
                    PlainXMLScanner.appendUTF8(scalar, to: &decoded)
                    continue
                }
                if byte == 0x0D, index + 1 < raw.count, raw[index + 1] == 0x0A { index += 1 }
                decoded.append(byte == 0x09 || byte == 0x0A || byte == 0x0D ? 0x20 : byte)
                index += 1
            }
            return String(decoding: decoded, as: UTF8.self)
        }

        func plainNumber(of attribute: StaticString) -> Double? {
            self.attribute(attribute)?.number
        }

        private func attribute(_ attributeName: StaticString) -> Attribute? {
            attributes.first { PlainXMLScanner.bytes(bytes, $0.name, equal: attributeName) }
        }
    }

    /// The document is outside what this scanner checks, or not well-formed: expat decides.
    struct CannotVouch: Error {}

    /// At most this many attributes on one element: duplicates are found by comparing every pair.
    static let maximumAttributes = 32

    private let bytes: UnsafeBufferPointer<UInt8>
    /// `ByteClass.table`, read once: reading a lazy global costs a call per use.
    private let table = ByteClass.table
    private var index = 0
    /// The names of the open elements, root first.
    private var open: [Range<Int>] = []
    /// The current start tag's attributes: `maximumAttributes` places, of which `attributeCount` are used.
    private let attributes: UnsafeMutableBufferPointer<Tag.Attribute>
    private var attributeCount = 0
    private var text: [UInt8] = []

    private init(_ bytes: UnsafeBufferPointer<UInt8>, attributes: UnsafeMutableBufferPointer<Tag.Attribute>) {
        self.bytes = bytes
        self.attributes = attributes
    }

    /// Reads `bytes` as a whole document into `handler`; false when this scanner cannot vouch for
    /// the document, after which what the handler heard must be thrown away.
    static func read(_ bytes: UnsafeBufferPointer<UInt8>, into handler: some PlainXMLHandler) -> Bool {
        // Plain memory rather than an array: no reference counting or uniqueness check per tag.
        let attributes = UnsafeMutableBufferPointer<Tag.Attribute>.allocate(capacity: maximumAttributes)
        defer { attributes.deallocate() }
        var scanner = PlainXMLScanner(bytes, attributes: attributes)
        do throws(CannotVouch) {
            try scanner.document(handler)
            return true
        } catch {
            return false
        }
    }

    // MARK: The document

    private mutating func document(_ handler: some PlainXMLHandler) throws(CannotVouch) {
        if starts(with: "<?xml"), Self.isSpace(at(index + 5)) { try declaration() }
        try skipMisc()
        // The root element; a DOCTYPE, a processing instruction, text or nothing is left to expat.
        guard at(index) == UInt8(ascii: "<"), table[Int(at(index + 1))] & ByteClass.nameStart != 0 else { throw CannotVouch() }
        repeat {
            if at(index) == UInt8(ascii: "<") {
                switch at(index + 1) {
                case UInt8(ascii: "/"): try endTag(handler)
                case UInt8(ascii: "!") where starts(with: "<!--"): try comment()
                case UInt8(ascii: "!") where starts(with: "<![CDATA["): try cdata(handler)
                default: try startTag(handler)
                }
            } else {
                try characterData(handler)
            }
        } while !open.isEmpty
        try skipMisc()
        guard index == bytes.count else { throw CannotVouch() }
    }

    /// `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>`, encoding and standalone optional.
    private mutating func declaration() throws(CannotVouch) {
        index += 5
        skipSpace()
        try expect("version")
        guard equals(try pseudoAttributeValue(), "1.0") else { throw CannotVouch() }
        var spaced = skipSpace()
        if spaced, starts(with: "encoding") {
            index += 8
            let encoding = try pseudoAttributeValue()
            guard encoding.count == 5,
                zip(UnsafeBufferPointer(rebasing: bytes[encoding]), "utf-8".utf8).allSatisfy({ $0 | 0x20 == $1 | 0x20 })
            else { throw CannotVouch() }
            spaced = skipSpace()
        }
        if spaced, starts(with: "standalone") {
            index += 10
            let standalone = try pseudoAttributeValue()
            guard equals(standalone, "yes") || equals(standalone, "no") else { throw CannotVouch() }
            skipSpace()
        }
        try expect("?>")
    }

    /// `= "` or `= '` after an attribute's name, spaces allowed around `=`: the quote.
    private mutating func equalsAndQuote() throws(CannotVouch) -> UInt8 {
        skipSpace()
        try expect("=")
        skipSpace()
        let quote = at(index)
        guard quote == UInt8(ascii: "\"") || quote == UInt8(ascii: "'") else { throw CannotVouch() }
        index += 1
        return quote
    }

    /// `= "value"` after a pseudo-attribute's name: the value's range.
    private mutating func pseudoAttributeValue() throws(CannotVouch) -> Range<Int> {
        let quote = try equalsAndQuote()
        let start = index
        while at(index) != quote {
            guard at(index) >= 0x20, at(index) < 0x80 else { throw CannotVouch() }
            index += 1
        }
        index += 1
        return start..<(index - 1)
    }

    /// Spaces and comments between the declaration, the root element and the end.
    private mutating func skipMisc() throws(CannotVouch) {
        while true {
            skipSpace()
            guard starts(with: "<!--") else { return }
            try comment()
        }
    }

    // MARK: Markup

    private mutating func startTag(_ handler: some PlainXMLHandler) throws(CannotVouch) {
        index += 1
        let name = try self.name()
        attributeCount = 0
        let isEmpty: Bool
        while true {
            let spaced = skipSpace()
            if at(index) == UInt8(ascii: ">") {
                index += 1
                isEmpty = false
                break
            }
            if at(index) == UInt8(ascii: "/") {
                guard at(index + 1) == UInt8(ascii: ">") else { throw CannotVouch() }
                index += 2
                isEmpty = true
                break
            }
            guard spaced else { throw CannotVouch() }
            try attribute()
        }
        if !isEmpty { open.append(name) }
        do throws(RouteError) {
            try handler.start(Tag(bytes: bytes, name: name, attributes: UnsafeBufferPointer(rebasing: attributes[..<attributeCount])))
        } catch {
            throw CannotVouch()
        }
        if isEmpty { handler.end() }
    }

    private mutating func attribute() throws(CannotVouch) {
        let name = try self.name()
        let quote = try equalsAndQuote()
        let start = index
        var isVerbatim = true
        // Most values in a GPX are coordinates: read the number while passing over it.
        let (numberEnd, plainNumber) = PlainDecimal.prefix(of: bytes, from: index)
        index = numberEnd
        let number = at(index) == quote ? plainNumber : nil
        while true {
            while table[Int(at(index))] & ByteClass.verbatimValue != 0 { index += 1 }
            let byte = at(index)
            if byte == quote { break }
            if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
                index += 1  // the other quote
            } else if byte == UInt8(ascii: "&") {
                isVerbatim = false
                _ = try Self.reference(in: bytes, at: &index)
            } else if byte == 0x09 || byte == 0x0A || byte == 0x0D {
                isVerbatim = false
                index += 1
            } else if byte >= 0x80 {
                index += try scalarLength()
            } else {
                throw CannotVouch()  // `<`, a control character, or the end of the bytes
            }
        }
        let value = start..<index
        index += 1
        guard attributeCount < Self.maximumAttributes,
            !attributes[..<attributeCount].contains(where: { [bytes] in Self.bytes(bytes, $0.name, equal: name) })
        else { throw CannotVouch() }
        attributes.initializeElement(at: attributeCount, to: Tag.Attribute(name: name, value: value, isVerbatim: isVerbatim, number: number))
        attributeCount += 1
    }

    private mutating func endTag(_ handler: some PlainXMLHandler) throws(CannotVouch) {
        index += 2
        let name = try self.name()
        skipSpace()
        try expect(">")
        guard let opened = open.popLast(), Self.bytes(bytes, opened, equal: name) else { throw CannotVouch() }
        handler.end()
    }

    /// An ASCII name; a name with any other character is left to expat, which knows XML's tables.
    private mutating func name() throws(CannotVouch) -> Range<Int> {
        let start = index
        guard table[Int(at(index))] & ByteClass.nameStart != 0 else { throw CannotVouch() }
        index += 1
        while table[Int(at(index))] & ByteClass.name != 0 { index += 1 }
        guard at(index) < 0x80 else { throw CannotVouch() }
        return start..<index
    }

    private mutating func comment() throws(CannotVouch) {
        index += 4
        while true {
            let byte = at(index)
            if byte == UInt8(ascii: "-"), at(index + 1) == UInt8(ascii: "-") {
                // `--` may only end a comment.
                guard at(index + 2) == UInt8(ascii: ">") else { throw CannotVouch() }
                index += 3
                return
            }
            try skipCharacter()
        }
    }

    // MARK: Text

    private mutating func characterData(_ handler: some PlainXMLHandler) throws(CannotVouch) {
        let wanted = handler.wantsText
        if wanted { text.removeAll(keepingCapacity: true) }
        var run = index
        while true {
            while table[Int(at(index))] & ByteClass.plainText != 0 { index += 1 }
            let byte = at(index)
            if byte == UInt8(ascii: "<") {
                break
            } else if byte == UInt8(ascii: "&") {
                if wanted { appendNormalisingLineEnds(run..<index) }
                let scalar = try Self.reference(in: bytes, at: &index)
                if wanted { Self.appendUTF8(scalar, to: &text) }
                run = index
            } else if byte == UInt8(ascii: "]") {
                // `]]>` may only end a CDATA section.
                guard !starts(with: "]]>") else { throw CannotVouch() }
                index += 1
            } else {
                try skipCharacter()  // tab and line ends, else a valid non-ASCII character
            }
        }
        if wanted {
            appendNormalisingLineEnds(run..<index)
            if !text.isEmpty { text.withUnsafeBufferPointer { handler.text($0) } }
        }
    }

    private mutating func cdata(_ handler: some PlainXMLHandler) throws(CannotVouch) {
        index += 9
        let start = index
        while !starts(with: "]]>") { try skipCharacter() }
        if handler.wantsText {
            text.removeAll(keepingCapacity: true)
            appendNormalisingLineEnds(start..<index)
            if !text.isEmpty { text.withUnsafeBufferPointer { handler.text($0) } }
        }
        index += 3
    }

    /// Appends `range` to the text with CR LF and lone CR made LF, as XML 1.0 §2.11 has every parser do.
    private mutating func appendNormalisingLineEnds(_ range: Range<Int>) {
        var position = range.lowerBound
        while position < range.upperBound {
            let byte = bytes[position]
            if byte == 0x0D {
                text.append(0x0A)
                if position + 1 < range.upperBound, bytes[position + 1] == 0x0A { position += 1 }
            } else {
                text.append(byte)
            }
            position += 1
        }
    }

    // MARK: Characters

    /// Steps over one character XML allows anywhere in text: tab, line ends, printable ASCII, or
    /// a valid UTF-8 sequence of a character XML allows.
    private mutating func skipCharacter() throws(CannotVouch) {
        let byte = at(index)
        if byte >= 0x20 && byte < 0x80 || byte == 0x09 || byte == 0x0A || byte == 0x0D {
            index += 1
        } else if byte >= 0x80 {
            index += try scalarLength()
        } else {
            throw CannotVouch()  // a control character, NUL, or the end of the bytes
        }
    }

    /// The length of the UTF-8 sequence at `index`, which must encode a character XML allows
    /// (Unicode's table of well-formed sequences, less U+FFFE and U+FFFF).
    private func scalarLength() throws(CannotVouch) -> Int {
        let lead = at(index)
        let second = at(index + 1)
        func continuation(_ byte: UInt8) -> Bool { byte & 0xC0 == 0x80 }
        switch lead {
        case 0xC2...0xDF:
            guard continuation(second) else { throw CannotVouch() }
            return 2
        case 0xE0...0xEF:
            let third = at(index + 2)
            let secondRange: ClosedRange<UInt8> = lead == 0xE0 ? 0xA0...0xBF : lead == 0xED ? 0x80...0x9F : 0x80...0xBF
            guard secondRange.contains(second), continuation(third) else { throw CannotVouch() }
            guard !(lead == 0xEF && second == 0xBF && third >= 0xBE) else { throw CannotVouch() }
            return 3
        case 0xF0...0xF4:
            let secondRange: ClosedRange<UInt8> = lead == 0xF0 ? 0x90...0xBF : lead == 0xF4 ? 0x80...0x8F : 0x80...0xBF
            guard secondRange.contains(second), continuation(at(index + 2)), continuation(at(index + 3)) else { throw CannotVouch() }
            return 4
        default:
            throw CannotVouch()
        }
    }

    /// Reads the reference at `index` (its `&`) in `bytes` and steps past its `;`: one of the five
    /// predefined entities or a character reference to a character XML allows.
    fileprivate static func reference(in bytes: UnsafeBufferPointer<UInt8>, at index: inout Int) throws(CannotVouch) -> UInt32 {
        func at(_ position: Int) -> UInt8 { position < bytes.count ? bytes[position] : 0 }
        index += 1
        if at(index) == UInt8(ascii: "#") {
            index += 1
            let isHex = at(index) == UInt8(ascii: "x")
            if isHex { index += 1 }
            var value: UInt32 = 0
            var digits = 0
            while true {
                let byte = at(index)
                let digit: UInt32
                if byte &- UInt8(ascii: "0") < 10 {
                    digit = UInt32(byte &- UInt8(ascii: "0"))
                } else if isHex, (byte | 0x20) &- UInt8(ascii: "a") < 6 {
                    digit = UInt32((byte | 0x20) &- UInt8(ascii: "a")) + 10
                } else {
                    break
                }
                // Eight digits cannot overflow; longer spellings are left to expat.
                digits += 1
                guard digits <= 8 else { throw CannotVouch() }
                value = value * (isHex ? 16 : 10) + digit
                index += 1
            }
            guard digits > 0, at(index) == UInt8(ascii: ";"), isXMLCharacter(value) else { throw CannotVouch() }
            index += 1
            return value
        }
        for (name, scalar) in predefinedEntities {
            let matches = name.withUTF8Buffer { spelled in
                spelled.indices.allSatisfy { at(index + $0) == spelled[$0] }
            }
            if matches {
                index += name.utf8CodeUnitCount
                return scalar
            }
        }
        throw CannotVouch()
    }

    private static let predefinedEntities: [(StaticString, UInt32)] = [
        ("amp;", 0x26), ("lt;", 0x3C), ("gt;", 0x3E), ("quot;", 0x22), ("apos;", 0x27),
    ]

    /// XML 1.0's `Char`.
    private static func isXMLCharacter(_ value: UInt32) -> Bool {
        switch value {
        case 0x09, 0x0A, 0x0D, 0x20...0xD7FF, 0xE000...0xFFFD, 0x10000...0x10FFFF: true
        default: false
        }
    }

    fileprivate static func appendUTF8(_ value: UInt32, to bytes: inout [UInt8]) {
        guard let scalar = Unicode.Scalar(value) else { return }
        UTF8.encode(scalar) { bytes.append($0) }
    }

    // MARK: Bytes

    /// What each byte may be, as bits: one load per byte in the loops that cover most of a file.
    private enum ByteClass {
        static let nameStart: UInt8 = 1
        static let name: UInt8 = 2
        /// In an attribute value without further checks: printable ASCII but for quotes, `<` and `&`.
        static let verbatimValue: UInt8 = 4
        /// In character data without further checks: printable ASCII but for `<`, `&` and `]`.
        static let plainText: UInt8 = 8

        /// The table, made once and never freed; a pointer rather than an array, so reading it
        /// costs neither a reference count nor a bounds check. Written once, before anyone can
        /// read it, and only read after.
        nonisolated(unsafe) static let table: UnsafePointer<UInt8> = {
            let table = UnsafeMutablePointer<UInt8>.allocate(capacity: 256)
            for byte in 0..<256 {
                let character = UInt8(byte)
                var bits: UInt8 = 0
                let isLetter = (character | 0x20) &- UInt8(ascii: "a") < 26
                if isLetter || character == UInt8(ascii: "_") { bits |= nameStart | name }
                if character &- UInt8(ascii: "0") < 10 || character == UInt8(ascii: "-") || character == UInt8(ascii: ".")
                    || character == UInt8(ascii: ":")
                {
                    bits |= name
                }
                if character >= 0x20, character < 0x80 {
                    if !"\"'<&".utf8.contains(character) { bits |= verbatimValue }
                    if !"<&]".utf8.contains(character) { bits |= plainText }
                }
                table[byte] = bits
            }
            return UnsafePointer(table)
        }()
    }

    /// The byte at `position`, or 0 past the end: NUL is never valid XML, so every caller stops on it.
    private func at(_ position: Int) -> UInt8 {
        position < bytes.count ? bytes[position] : 0
    }

    private func starts(with literal: StaticString) -> Bool {
        literal.withUTF8Buffer { spelled in
            spelled.indices.allSatisfy { at(index + $0) == spelled[$0] }
        }
    }

    private mutating func expect(_ literal: StaticString) throws(CannotVouch) {
        guard starts(with: literal) else { throw CannotVouch() }
        index += literal.utf8CodeUnitCount
    }

    private func equals(_ range: Range<Int>, _ literal: StaticString) -> Bool {
        Self.bytes(bytes, range, equal: literal)
    }

    /// XML's white space; whether there was any.
    @discardableResult
    private mutating func skipSpace() -> Bool {
        let start = index
        while Self.isSpace(at(index)) { index += 1 }
        return index > start
    }

    /// XML's white space: space, tab, line feed and carriage return.
    static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x0A || byte == 0x09 || byte == 0x0D
    }

    fileprivate static func bytes(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, equal literal: StaticString) -> Bool {
        literal.withUTF8Buffer { spelled in
            range.count == spelled.count && zip(bytes[range], spelled).allSatisfy { $0 == $1 }
        }
    }

    private static func bytes(_ bytes: UnsafeBufferPointer<UInt8>, _ first: Range<Int>, equal second: Range<Int>) -> Bool {
        first.count == second.count && zip(bytes[first], bytes[second]).allSatisfy { $0 == $1 }
    }
}
