import CExpat

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import RouteModel

/// What a document's reader hears from `XMLStreamParser`, in document order.
///
/// A handler throws to stop the parse; the error is what `parse` then throws.
protocol XMLEventHandler: AnyObject {
    func xmlParser(_ parser: XMLStreamParser, didStart element: XMLTag) throws(RouteError)
    func xmlParser(_ parser: XMLStreamParser, didEnd element: XMLTag) throws(RouteError)
    /// Character data, CDATA included, in pieces: one text node may arrive in several calls.
    func xmlParser(_ parser: XMLStreamParser, didFind text: UnsafeBufferPointer<UInt8>)
}

/// An XML document read in one streaming pass by expat.
///
/// Safe on hostile bytes by construction: expat never opens files or URLs itself, a document may not
/// declare entities (GPX never does, and refusing them removes every entity-expansion attack), and the
/// encodings are a closed list: expat's own UTF-8, UTF-16, ISO-8859-1 and US-ASCII, plus Windows-1252
/// mapped here. Any other declared encoding is an error that names it.
final class XMLStreamParser {
    /// Why the document is not XML that can be read: where, and what is wrong.
    struct SyntaxError: Error, Sendable {
        /// 1-based, counted in the bytes given to `parse`.
        var line: Int
        /// 1-based, in bytes.
        var column: Int
        var problem: String
        /// The bytes ended while elements were still open: a file cut short.
        var endedEarly: Bool
    }

    private let parser: XML_Parser
    /// Held only during `parse` (set at its start, cleared at its end): a weak reference here cost
    /// a tenth of reading a large GPX, loaded on every event.
    private var handler: (any XMLEventHandler)?
    /// The first error a handler threw; it stopped the parse.
    private var handlerError: RouteError?
    /// Why the document was refused by a rule of ours rather than by expat.
    private var refusal: String?
    /// The encoding the document declared, when expat does not know it.
    private var unknownEncoding: String?
    /// Elements open at the current position.
    private(set) var depth = 0

    /// Windows-1252 under the names documents give it, as WHATWG's Encoding Standard labels it.
    static let windows1252Names: Set<String> = ["windows-1252", "cp1252", "x-cp1252"]

    /// A parser for one document; nil only when expat cannot allocate one.
    init?() {
        guard let parser = XML_ParserCreate(nil) else { return nil }
        self.parser = parser
    }

    deinit {
        XML_ParserFree(parser)
    }

    /// The line of the event being reported (1-based).
    var currentLine: Int { Int(XML_GetCurrentLineNumber(parser)) }

    /// Reads `bytes` as one whole document, reporting to `handler`.
    ///
    /// - Throws: `.handler` with the error a handler threw, or `.syntax` for a document that is not
    ///   well-formed, declares entities or uses an encoding outside the list above.
    func parse(_ bytes: UnsafeRawBufferPointer, handler: any XMLEventHandler) throws(XMLReadError) {
        self.handler = handler
        // The handler usually holds this parser's results; it must not keep the parser alive after.
        defer { self.handler = nil }
        let context = Unmanaged.passUnretained(self).toOpaque()
        XML_SetUserData(parser, context)
        XML_SetElementHandler(
            parser,
            { context, name, attributes in
                XMLStreamParser.from(context)?.start(name, attributes)
            },
            { context, name in
                XMLStreamParser.from(context)?.end(name)
            })
        XML_SetCharacterDataHandler(parser) { context, text, length in
            XMLStreamParser.from(context)?.characters(text, length)
        }
        XML_SetEntityDeclHandler(parser) { context, _, _, _, _, _, _, _, _ in
            XMLStreamParser.from(context)?.refuse("the document declares an entity; GPX files never do, and markerpaint does not expand them")
        }
        XML_SetUnknownEncodingHandler(
            parser,
            { context, name, info in
                XMLStreamParser.from(context)?.describeEncoding(name, into: info) ?? Int32(XML_STATUS_ERROR.rawValue)
            }, context)
        // Parameter entities and external subsets are never read; the default, made explicit.
        XML_SetParamEntityParsing(parser, XML_PARAM_ENTITY_PARSING_NEVER)

        // The body, then an empty final call: an error in the final call means the bytes ended
        // while the document was still open, which is how a cut-off file shows.
        var offset = 0
        while offset < bytes.count {
            // expat takes an `int` length: feed large inputs in pieces.
            let length = min(bytes.count - offset, 1 << 24)
            guard feed(bytes.baseAddress.map { $0 + offset }, length: length, isFinal: false) else {
                throw failure(endedEarly: false)
            }
            offset += length
        }
        guard feed(nil, length: 0, isFinal: true) else { throw failure(endedEarly: depth > 0) }
    }

    private func feed(_ start: UnsafeRawPointer?, length: Int, isFinal: Bool) -> Bool {
        XML_Parse(parser, start?.assumingMemoryBound(to: CChar.self), Int32(length), isFinal ? 1 : 0) == XML_STATUS_OK
    }

    private func failure(endedEarly: Bool) -> XMLReadError {
        if let handlerError { return .handler(handlerError) }
        let code = XML_GetErrorCode(parser)
        let line = Int(XML_GetCurrentLineNumber(parser))
        let column = Int(XML_GetCurrentColumnNumber(parser)) + 1
        let problem = refusal ?? describe(code)
        return .syntax(SyntaxError(line: line, column: column, problem: problem, endedEarly: endedEarly && refusal == nil))
    }

    /// Stops the parse at the current event with `problem`, a rule of ours.
    private func refuse(_ problem: String) {
        guard refusal == nil, handlerError == nil else { return }
        refusal = problem
        XML_StopParser(parser, 0)  // not resumable
    }

    private func stop(with error: RouteError) {
        guard refusal == nil, handlerError == nil else { return }
        handlerError = error
        XML_StopParser(parser, 0)  // not resumable
    }

    // MARK: expat's callbacks

    /// The parser `parse` registered as expat's user data; `parse` keeps it alive throughout.
    private static func from(_ context: UnsafeMutableRawPointer?) -> XMLStreamParser? {
        context.map { Unmanaged<XMLStreamParser>.fromOpaque($0).takeUnretainedValue() }
    }

    private func start(_ name: UnsafePointer<CChar>?, _ attributes: UnsafeMutablePointer<UnsafePointer<CChar>?>?) {
        guard let name, handlerError == nil, refusal == nil else { return }
        depth += 1
        do throws(RouteError) {
            try handler?.xmlParser(self, didStart: XMLTag(name: name, attributes: attributes))
        } catch {
            stop(with: error)
        }
    }

    private func end(_ name: UnsafePointer<CChar>?) {
        guard let name, handlerError == nil, refusal == nil else { return }
        depth -= 1
        do throws(RouteError) {
            try handler?.xmlParser(self, didEnd: XMLTag(name: name, attributes: nil))
        } catch {
            stop(with: error)
        }
    }

    private func characters(_ text: UnsafePointer<CChar>?, _ length: Int32) {
        guard let text, length > 0, handlerError == nil, refusal == nil else { return }
        text.withMemoryRebound(to: UInt8.self, capacity: Int(length)) { bytes in
            handler?.xmlParser(self, didFind: UnsafeBufferPointer(start: bytes, count: Int(length)))
        }
    }

    /// Fills `info` for Windows-1252; any other name expat does not know is refused (and remembered).
    private func describeEncoding(_ name: UnsafePointer<CChar>?, into info: UnsafeMutablePointer<XML_Encoding>?) -> Int32 {
        let declared = name.map { String(cString: $0) } ?? ""
        guard Self.windows1252Names.contains(declared.lowercased()), let info else {
            unknownEncoding = declared
            return Int32(XML_STATUS_ERROR.rawValue)
        }
        withUnsafeMutableBytes(of: &info.pointee.map) { raw in
            let map = raw.bindMemory(to: Int32.self)
            for byte in 0..<256 { map[byte] = Int32(byte) }
            for (offset, scalar) in Self.windows1252High.enumerated() { map[0x80 + offset] = scalar }
        }
        info.pointee.data = nil
        info.pointee.convert = nil
        info.pointee.release = nil
        return Int32(XML_STATUS_OK.rawValue)
    }

    /// Bytes 0x80...0x9F in Windows-1252 (WHATWG): the five bytes it leaves undefined map to the C1
    /// control of the same number, as every browser reads them, so no byte is an error.
    private static let windows1252High: [Int32] = [
        0x20AC, 0x0081, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021, 0x02C6, 0x2030, 0x0160, 0x2039, 0x0152, 0x008D, 0x017D, 0x008F,
        0x0090, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014, 0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0x009D, 0x017E, 0x0178,
    ]

    /// expat's error, in words a person who has the file can act on.
    private func describe(_ code: XML_Error) -> String {
        switch code {
        case XML_ERROR_UNKNOWN_ENCODING:
            let name = unknownEncoding.map { "\"\($0)\"" } ?? "its encoding"
            return "the document is in \(name), which markerpaint does not read; "
                + "save it as UTF-8 (UTF-16, ISO-8859-1 and Windows-1252 are read too)"
        case XML_ERROR_INCORRECT_ENCODING:
            return "the bytes do not match the encoding the document declares"
        case XML_ERROR_NO_ELEMENTS:
            return "no XML element found (is this XML at all?)"
        case XML_ERROR_INVALID_TOKEN:
            return "not well-formed: a character that is not allowed here, or bytes that are not valid in the document's encoding"
        case XML_ERROR_PARTIAL_CHAR:
            return "a character cut off part-way (bytes that are not valid in the document's encoding)"
        case XML_ERROR_UNCLOSED_TOKEN:
            return "a tag is not properly closed"
        case XML_ERROR_TAG_MISMATCH:
            return "an end tag does not match the element it closes"
        case XML_ERROR_DUPLICATE_ATTRIBUTE:
            return "an element has the same attribute twice"
        case XML_ERROR_JUNK_AFTER_DOC_ELEMENT:
            return "there is more after the root element ends"
        case XML_ERROR_UNDEFINED_ENTITY:
            return "an undefined entity reference (only &amp; &lt; &gt; &quot; &apos; and character references are read)"
        case XML_ERROR_MISPLACED_XML_PI:
            return "an XML declaration that is not at the start"
        case XML_ERROR_NO_MEMORY:
            return "out of memory"
        case XML_ERROR_AMPLIFICATION_LIMIT_BREACH:
            return "entity references expand too far"
        default:
            let text = XML_ErrorString(code).map { String(cString: $0) } ?? "error \(code.rawValue)"
            return "XML syntax error: \(text)"
        }
    }
}

/// How reading an XML document failed.
enum XMLReadError: Error {
    /// A handler refused what the document says.
    case handler(RouteError)
    /// The document itself is not readable XML.
    case syntax(XMLStreamParser.SyntaxError)
}

/// An element's name and attributes as expat reports them, valid only during the callback.
struct XMLTag: XMLTagReading {
    fileprivate let name: UnsafePointer<CChar>
    fileprivate let attributes: UnsafeMutablePointer<UnsafePointer<CChar>?>?

    func hasLocalName(_ expected: StaticString) -> Bool {
        let local = strrchr(name, Int32(UInt8(ascii: ":"))).map { UnsafePointer($0) + 1 } ?? name
        return Self.cString(local, equals: expected)
    }

    var qualifiedName: String { String(cString: name) }

    func value(of attribute: StaticString) -> String? {
        rawValue(of: attribute).map { String(cString: $0) }
    }

    func plainNumber(of attribute: StaticString) -> Double? {
        guard let value = rawValue(of: attribute) else { return nil }
        let length = strlen(value)
        return value.withMemoryRebound(to: UInt8.self, capacity: length) { bytes in
            PlainDecimal.value(UnsafeBufferPointer(start: bytes, count: length))
        }
    }

    private func rawValue(of attribute: StaticString) -> UnsafePointer<CChar>? {
        guard let attributes else { return nil }
        var index = 0
        // expat's list is name, value, name, value, ..., nil.
        while let key = attributes[index] {
            guard let value = attributes[index + 1] else { return nil }
            if Self.cString(key, equals: attribute) { return value }
            index += 2
        }
        return nil
    }

    private static func cString(_ text: UnsafePointer<CChar>, equals expected: StaticString) -> Bool {
        expected.withUTF8Buffer { bytes in
            guard strlen(text) == bytes.count, let expected = bytes.baseAddress else { return strlen(text) == bytes.count }
            return memcmp(text, expected, bytes.count) == 0
        }
    }
}
