import RouteModel

/// Reads the tracks and routes of a GPX 1.0 or 1.1 document as stages.
///
/// Each `<trk>` is a stage made of its `<trkseg>`s in order, each `<rte>` a stage of its
/// `<rtept>`s. Waypoints (`<wpt>`, with their `<name>`, `<desc>` and `<sym>`) are not part of the
/// way; they are read beside it. Elements are matched by local
/// name and position under `<gpx>`, so either GPX namespace (or none, or an undeclared prefix) works
/// and extensions that reuse a name deeper down are not mistaken for points.
enum GPXReader {
    /// How a document is read.
    enum Method {
        /// `PlainXMLScanner` first, expat when the scanner cannot vouch for the document.
        case plainFirst
        /// expat alone.
        case expat
    }

    static func stages(from bytes: [UInt8], method: Method = .plainFirst) throws(RouteError) -> [StageCandidate] {
        try read(bytes, method: method).stages
    }

    /// The stages and the waypoints of a document.
    static func read(_ bytes: [UInt8], method: Method = .plainFirst) throws(RouteError) -> (stages: [StageCandidate], waypoints: [Waypoint]) {
        // expat rejects an XML declaration that is not at the very start, so leading whitespace is
        // cut; the lines it spanned are added back to every reported line. UTF-16 is left alone.
        var start = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        var skippedLines = 0
        let looksLikeUTF16 = bytes.count >= 2 && (bytes[0] == 0 || bytes[1] == 0 || bytes[0] >= 0xFE)
        while !looksLikeUTF16, start < bytes.count, PlainXMLScanner.isSpace(bytes[start]) {
            if bytes[start] == 0x0A { skippedLines += 1 }
            start += 1
        }

        if method == .plainFirst, !looksLikeUTF16, let read = plainRead(bytes[start...]) {
            #if FUZZING
            // Whatever the scanner accepts, expat must read the same.
            let expat = try? Self.read(bytes, method: .expat)
            if expat.map({ same($0.stages, read.stages) && $0.waypoints == read.waypoints }) != true {
                fatalError("the plain scanner and expat read a document differently")
            }
            #endif
            return read
        }

        let collector = GPXCollector(skippedLines: skippedLines)
        try parseWithExpat(bytes, from: start, skippedLines: skippedLines, handler: collector)

        guard collector.pointCount > 0 else {
            let waypoints = collector.waypointCount > 0 ? " (waypoints alone are not a way)" : ""
            throw RouteError("the GPX has no track or route points\(waypoints)")
        }
        return (collector.candidates, collector.waypoints)
    }

    /// Walks `bytes` from `start` with expat, `handler` hearing each event; a syntax error is reported
    /// by its line in the whole input (`skippedLines` were cut before `start`).
    static func parseWithExpat(_ bytes: [UInt8], from start: Int, skippedLines: Int, handler: some XMLEventHandler) throws(RouteError) {
        guard let parser = XMLStreamParser() else { throw RouteError("not enough memory to read the GPX") }
        let outcome = bytes[start...].withUnsafeBytes { body in
            Result { () throws(XMLReadError) in try parser.parse(body, handler: handler) }
        }
        switch outcome {
        case .success:
            break
        case .failure(.handler(let error)):
            throw error
        case .failure(.syntax(let failure)):
            if failure.endedEarly {
                let content = bytes.reversed().drop(while: PlainXMLScanner.isSpace)
                let lastLine = content.count { $0 == 0x0A } + 1
                throw RouteError(
                    "not valid XML: line \(lastLine), at the end of the input: the document ends before its elements are closed (is the file truncated?)"
                )
            }
            throw RouteError("not valid XML: line \(failure.line + skippedLines), column \(failure.column): \(failure.problem)")
        }
    }

    /// The stages `PlainXMLScanner` reads; nil for anything it cannot vouch for or that is not a
    /// GPX with points, which expat then reads again to say what is wrong.
    static func plainStages(_ bytes: ArraySlice<UInt8>) -> [StageCandidate]? {
        plainRead(bytes)?.stages
    }

    static func plainRead(_ bytes: ArraySlice<UInt8>) -> (stages: [StageCandidate], waypoints: [Waypoint])? {
        let collector = GPXCollector(skippedLines: 0)
        let read = bytes.withUnsafeBufferPointer { PlainXMLScanner.read($0, into: collector) }
        guard read, collector.pointCount > 0 else { return nil }
        return (collector.candidates, collector.waypoints)
    }

    /// Whether two readings found the same stages with the same labels and coordinates.
    static func same(_ first: [StageCandidate], _ second: [StageCandidate]) -> Bool {
        first.count == second.count
            && zip(first, second).allSatisfy { $0.label == $1.label && $0.stage.coordinates == $1.stage.coordinates }
    }
}

/// Collects stages while a parser walks the document. Used by one parse on one thread only.
private final class GPXCollector {
    /// The elements whose place matters; everything else is `.other`.
    private enum Element {
        case gpx, track, route, waypoint, segment, name, waypointText, other
    }

    /// A `<trk>` or `<rte>` being read.
    private struct OpenStage {
        enum Kind: String {
            case track, route
        }
        var kind: Kind
        var number: Int
        var name: [UInt8]?
        var coordinates: [Coordinate] = []
    }

    // Only the parse's one thread touches this state, inside a callback; unchecked exclusivity
    // spares a runtime access check per event, a tenth of reading a large file.
    private let skippedLines: Int
    /// The open elements, root first.
    @exclusivity(unchecked) private var path: [Element] = []
    @exclusivity(unchecked) private var open: OpenStage?
    /// The text of the stage's `<name>` while it is open.
    @exclusivity(unchecked) private var nameText: [UInt8]?
    private var trackCount = 0
    private var routeCount = 0

    private(set) var candidates: [StageCandidate] = []
    @exclusivity(unchecked) private(set) var pointCount = 0
    private(set) var waypointCount = 0
    /// The waypoints read, and the one open with the field whose text is being read.
    private(set) var waypoints: [Waypoint] = []
    private var openWaypoint: Waypoint?
    private var waypointField: (name: String, text: [UInt8])?

    init(skippedLines: Int) {
        self.skippedLines = skippedLines
    }

    /// An element starts; `currentLine` is asked only for a message.
    func start(_ tag: some XMLTagReading, currentLine: () -> Int) throws(RouteError) {
        let element: Element
        let parent = path.last
        switch path.count {
        case 0:
            guard tag.hasLocalName("gpx") else {
                throw RouteError("not a GPX document: its root element is <\(tag.qualifiedName)>, not <gpx>")
            }
            element = .gpx
        case 1:
            if tag.hasLocalName("trk") {
                trackCount += 1
                open = OpenStage(kind: .track, number: trackCount)
                element = .track
            } else if tag.hasLocalName("rte") {
                routeCount += 1
                open = OpenStage(kind: .route, number: routeCount)
                element = .route
            } else if tag.hasLocalName("wpt") {
                waypointCount += 1
                try readWaypoint(tag, currentLine: currentLine)
                element = .waypoint
            } else {
                element = .other
            }
        case 2 where parent == .track || parent == .route:
            if tag.hasLocalName("name") {
                nameText = []
                element = .name
            } else if parent == .track, tag.hasLocalName("trkseg") {
                element = .segment
            } else if parent == .route, tag.hasLocalName("rtept") {
                try readPoint(tag, currentLine: currentLine)
                element = .other
            } else {
                element = .other
            }
        case 2 where parent == .waypoint && openWaypoint != nil:
            let field = ["name", "desc", "sym"].first { tag.hasLocalName($0) }
            waypointField = field.map { ("\($0)", []) }
            element = field == nil ? .other : .waypointText
        case 3 where parent == .segment && tag.hasLocalName("trkpt"):
            try readPoint(tag, currentLine: currentLine)
            element = .other
        default:
            element = .other
        }
        path.append(element)
    }

    func end() {
        switch path.popLast() {
        case .track, .route:
            if let stage = open {
                candidates.append(
                    StageCandidate(
                        at: "\(stage.kind.rawValue) \(stage.number)", name: stage.name.flatMap(Self.trimmedName),
                        coordinates: stage.coordinates))
            }
            open = nil
        case .name:
            if let text = nameText, open != nil { open?.name = text }
            nameText = nil
        case .waypointText:
            if let (field, bytes) = waypointField, let text = Self.trimmedName(bytes) {
                let kept = String(text.prefix(Waypoint.maximumTextCharacters))
                switch field {
                case "name": openWaypoint?.name = kept
                case "desc": openWaypoint?.description = kept
                default: openWaypoint?.symbol = kept
                }
            }
            waypointField = nil
        case .waypoint:
            if let waypoint = openWaypoint { waypoints.append(waypoint) }
            openWaypoint = nil
        default:
            break
        }
    }

    /// Whether text now would be part of a stage's name or a waypoint's field.
    var wantsText: Bool { (nameText != nil && path.last == .name) || (waypointField != nil && path.last == .waypointText) }

    func text(_ text: UnsafeBufferPointer<UInt8>) {
        if path.last == .waypointText {
            // Bounded: a field longer than a waypoint keeps is not read further.
            if let count = waypointField?.text.count, count < 4 * Waypoint.maximumTextCharacters { waypointField?.text.append(contentsOf: text) }
            return
        }
        guard wantsText else { return }
        nameText?.append(contentsOf: text)
    }

    /// Opens a waypoint at its coordinate (refused as a track point's would be), or none past
    /// `Waypoint.maximumCount`.
    private func readWaypoint(_ tag: some XMLTagReading, currentLine: () -> Int) throws(RouteError) {
        // One past the limit, so that the route can say some were left out.
        guard waypoints.count <= Waypoint.maximumCount else { return }
        let number = waypointCount
        func place() -> String { "line \(currentLine() + skippedLines), waypoint \(number)" }
        let latitude = try self.number(of: "lat", in: tag, at: place())
        let longitude = try self.number(of: "lon", in: tag, at: place())
        openWaypoint = Waypoint(coordinate: try CoordinateCheck.coordinate(latitude: latitude, longitude: longitude, at: place()))
    }

    /// The name as a string without surrounding whitespace; nil if nothing is left.
    private static func trimmedName(_ bytes: [UInt8]) -> String? {
        let name = String(decoding: bytes, as: UTF8.self).trimmingWhitespace()
        return name.isEmpty ? nil : name
    }

    /// Reads a point's coordinate; `currentLine` is asked only for a message: expat counts lines by
    /// scanning again every byte since it was last asked.
    private func readPoint(_ tag: some XMLTagReading, currentLine: () -> Int) throws(RouteError) {
        // Only scalars are copied out of `open`: holding a copy of it would make the append below copy the array.
        guard let kind = open?.kind, let stageNumber = open?.number, let count = open?.coordinates.count else { return }
        pointCount += 1
        // Nearly every point: two plain decimals in range, read with no message to prepare.
        if let latitude = tag.plainNumber(of: "lat"), let longitude = tag.plainNumber(of: "lon"),
            let coordinate = CoordinateCheck.validCoordinate(latitude: latitude, longitude: longitude)
        {
            open?.coordinates.append(coordinate)
            return
        }
        // Built only for a message: formatting it for every point would double the time to read a large file.
        func place() -> String { "line \(currentLine() + skippedLines), \(kind.rawValue) \(stageNumber), point \(count + 1)" }
        let latitude = try number(of: "lat", in: tag, at: place())
        let longitude = try number(of: "lon", in: tag, at: place())
        let coordinate = try CoordinateCheck.coordinate(latitude: latitude, longitude: longitude, at: place())
        open?.coordinates.append(coordinate)
    }

    /// The number in `attribute`: most files hold plain decimals, read without a String; anything
    /// else takes the general path.
    private func number(
        of attribute: StaticString, in tag: some XMLTagReading, at place: @autoclosure () -> String
    ) throws(RouteError) -> Double {
        if let plain = tag.plainNumber(of: attribute) { return plain }
        return try number(tag.value(of: attribute), named: "\(attribute)", at: place())
    }

    private func number(
        _ text: String?, named attribute: String, at place: @autoclosure () -> String
    ) throws(RouteError) -> Double {
        guard let text else { throw RouteError("\(place()): the point has no \(attribute) attribute") }
        // Double(_:) also takes "nan" and "inf"; CoordinateCheck rejects those as not finite.
        guard let value = Double(text) ?? Double(text.trimmingWhitespace()) else {
            let name = attribute == "lat" ? "latitude" : "longitude"
            throw RouteError("\(place()): \(name) \"\(text)\" is not a number")
        }
        return value
    }
}

extension GPXCollector: XMLEventHandler {
    func xmlParser(_ parser: XMLStreamParser, didStart tag: XMLTag) throws(RouteError) {
        try start(tag) { parser.currentLine }
    }

    func xmlParser(_ parser: XMLStreamParser, didEnd tag: XMLTag) throws(RouteError) {
        end()
    }

    func xmlParser(_ parser: XMLStreamParser, didFind text: UnsafeBufferPointer<UInt8>) {
        self.text(text)
    }
}

extension GPXCollector: PlainXMLHandler {
    func start(_ tag: PlainXMLScanner.Tag) throws(RouteError) {
        // Any error makes expat read the document again, and its message gives the line.
        try start(tag) { 0 }
    }
}

extension StringProtocol {
    /// The text without leading and trailing spaces, tabs and line breaks.
    func trimmingWhitespace() -> String {
        let isBlank: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0.isNewline }
        guard let first = firstIndex(where: { !isBlank($0) }), let last = lastIndex(where: { !isBlank($0) }) else { return "" }
        return String(self[first...last])
    }
}
