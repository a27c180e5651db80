import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

/// Reads the tracks and routes of a GPX 1.0 or 1.1 document as stages.
///
/// Each `<trk>` is a stage made of its `<trkseg>`s in order, each `<rte>` a stage of its
/// `<rtept>`s; waypoints are not part of the way and are ignored. Elements are matched by local
/// name and position under `<gpx>`, so either GPX namespace (or none) works and extensions that
/// reuse a name deeper down are not mistaken for points.
enum GPXReader {
    static func stages(from bytes: [UInt8]) throws(RouteError) -> [StageCandidate] {
        // libxml2 rejects an XML declaration that is not at the very start, so leading
        // whitespace is cut; the lines it spanned are added back to every reported line.
        var start = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        var skippedLines = 0
        while start < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[start]) {
            if bytes[start] == 0x0A { skippedLines += 1 }
            start += 1
        }
        let data = Data(bytes[start...])
        // Not XMLParser(data:): swift-corelibs hands libxml2 the whole buffer as one chunk, which
        // fails with an "internal error" beyond 10 MB (libxml2's lookup limit). A stream is fed in pieces.
        let parser = XMLParser(stream: InputStream(data: data))
        parser.shouldProcessNamespaces = true
        parser.shouldResolveExternalEntities = false  // a route file must not make us read other files
        let delegate = GPXParserDelegate(skippedLines: skippedLines)
        parser.delegate = delegate
        _ = parser.parse()  // on Linux it returns true even for a truncated document; the delegate saw the error

        if let error = delegate.error { throw error }
        if let failure = delegate.xmlFailure {
            let content = data.reversed().drop { [0x20, 0x09, 0x0A, 0x0D].contains($0) }
            let lastLine = content.count { $0 == 0x0A } + 1
            // An error on the last line of content with elements still open is the end of a cut-off
            // file, whatever libxml2 calls it (often a malformed attribute or tag).
            let problem = failure.line >= lastLine && delegate.isInsideElement
                ? "the document ends before its elements are closed (is the file truncated?)"
                : failure.problem
            throw RouteError("not valid XML: line \(failure.line + skippedLines), column \(failure.column): \(problem)")
        }
        guard delegate.pointCount > 0 else {
            let waypoints = delegate.waypointCount > 0 ? " (waypoints alone are not a way)" : ""
            throw RouteError("the GPX has no track or route points\(waypoints)")
        }
        return delegate.candidates
    }
}

/// The first XML syntax error libxml2 reported, in words.
private struct XMLFailure {
    var line: Int
    var column: Int
    var problem: String

    init(code: Int, line: Int, column: Int) {
        self.line = line
        self.column = column
        // The codes are libxml2's xmlParserErrors, passed on unchanged in the NSError. They are matched
        // as numbers because swift-corelibs' XMLParser.ErrorCode does not line up with them, and the
        // NSError's own description on Linux says only "error 5".
        problem = switch code {
        case 4: "no XML element found (is this XML at all?)"
        case 5, 77, 85: "the document ends before its elements are closed, or goes on after its root element"
        case 76: "an end tag does not match the element it closes"
        case 73, 72, 74: "a tag is not properly closed"
        case 38...42, 65: "a malformed attribute"
        case 23...26: "an unknown or malformed entity reference"
        case 9, 31, 32, 81: "a character that is not valid in this encoding"
        case 64: "an XML declaration that is not at the start"
        case 68: "a tag without a name"
        default: "XML syntax error \(code) (libxml2)"
        }
    }
}

/// Collects stages while XMLParser walks the document. Used by one parse on one thread only.
private final class GPXParserDelegate: NSObject, XMLParserDelegate {
    /// A `<trk>` or `<rte>` being read.
    private struct OpenStage {
        var kind: String
        var number: Int
        var name: String?
        var coordinates: [Coordinate] = []
    }

    private let skippedLines: Int
    /// Local names of the open elements, root first.
    private var path: [String] = []
    private var open: OpenStage?
    private var nameText: String?
    private var trackCount = 0
    private var routeCount = 0

    private(set) var candidates: [StageCandidate] = []
    private(set) var pointCount = 0
    private(set) var waypointCount = 0
    private(set) var error: RouteError?
    private(set) var xmlFailure: XMLFailure?

    init(skippedLines: Int) {
        self.skippedLines = skippedLines
    }

    func parser(
        _ parser: XMLParser, didStartElement element: String, namespaceURI: String?, qualifiedName: String?,
        attributes: [String: String] = [:]
    ) {
        defer { path.append(element) }
        switch (path.count, element) {
        case (0, "gpx"):
            break
        case (0, _):
            fail(parser, RouteError("not a GPX document: its root element is <\(qualifiedName ?? element)>, not <gpx>"))
        case (1, "trk"):
            trackCount += 1
            open = OpenStage(kind: "track", number: trackCount)
        case (1, "rte"):
            routeCount += 1
            open = OpenStage(kind: "route", number: routeCount)
        case (1, "wpt"):
            waypointCount += 1
        case (2, "name") where open != nil:
            nameText = ""
        case (3, "trkpt") where path[1] == "trk" && path[2] == "trkseg", (2, "rtept") where path[1] == "rte":
            readPoint(attributes, parser: parser)
        default:
            break
        }
    }

    func parser(_ parser: XMLParser, didEndElement element: String, namespaceURI: String?, qualifiedName: String?) {
        path.removeLast()
        switch (path.count, element) {
        case (1, "trk"), (1, "rte"):
            if let stage = open {
                let location = "\(stage.kind) \(stage.number)"
                candidates.append(StageCandidate(at: location, name: stage.name, coordinates: stage.coordinates))
            }
            open = nil
        case (2, "name"):
            if let text = nameText?.trimmingCharacters(in: .whitespacesAndNewlines), !text.isEmpty {
                open?.name = text
            }
            nameText = nil
        default:
            break
        }
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
        nameText? += string
    }

    func parser(_ parser: XMLParser, parseErrorOccurred parseError: Error) {
        guard error == nil, xmlFailure == nil else { return }  // later errors follow from the first
        xmlFailure = XMLFailure(code: (parseError as NSError).code, line: parser.lineNumber, column: parser.columnNumber)
        parser.abortParsing()
    }

    /// Whether an element was still open where parsing stopped.
    var isInsideElement: Bool { !path.isEmpty }

    private func readPoint(_ attributes: [String: String], parser: XMLParser) {
        // Only scalars are copied out of `open`: holding a copy of it would make the append below copy the array.
        guard let kind = open?.kind, let stageNumber = open?.number, let count = open?.coordinates.count else { return }
        pointCount += 1
        // Built only for a message: formatting it for every point would double the time to read a large file.
        let place = { "line \(parser.lineNumber + self.skippedLines), \(kind) \(stageNumber), point \(count + 1)" }
        do throws(RouteError) {
            let latitude = try number(attributes["lat"], named: "lat", at: place())
            let longitude = try number(attributes["lon"], named: "lon", at: place())
            let coordinate = try CoordinateCheck.coordinate(latitude: latitude, longitude: longitude, at: place())
            open?.coordinates.append(coordinate)
        } catch {
            fail(parser, error)
        }
    }

    private func number(
        _ text: String?, named attribute: String, at place: @autoclosure () -> String
    ) throws(RouteError) -> Double {
        guard let text else { throw RouteError("\(place()): the point has no \(attribute) attribute") }
        // Double(_:) also takes "nan" and "inf"; CoordinateCheck rejects those as not finite.
        guard let value = Double(text) ?? Double(text.trimmingCharacters(in: .whitespacesAndNewlines)) else {
            let name = attribute == "lat" ? "latitude" : "longitude"
            throw RouteError("\(place()): \(name) \"\(text)\" is not a number")
        }
        return value
    }

    /// Records the first problem only: libxml2 may report a syntax error (a tag cut off by truncation)
    /// before handing over the element it could not finish, whose missing attributes are not the news.
    private func fail(_ parser: XMLParser, _ problem: RouteError) {
        guard error == nil, xmlFailure == nil else { return }
        error = problem
        parser.abortParsing()
    }
}
