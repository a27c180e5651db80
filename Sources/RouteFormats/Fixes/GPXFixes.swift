import RouteModel

/// Reads the points of a GPX's tracks (or, without tracks, its routes) as fixes, each with its line.
enum GPXFixes {
    static func read(_ bytes: [UInt8]) throws(FixError) -> [FixRecord] {
        let collector = GPXFixCollector()
        do {
            try GPXReader.parseWithExpat(bytes, from: 0, skippedLines: 0, handler: collector)
        } catch {
            throw FixError(error.message)
        }
        guard !collector.records.isEmpty else { throw FixError("the GPX has no track or route points") }
        return collector.records
    }
}

/// Collects points while expat walks the document. Used by one parse on one thread only.
private final class GPXFixCollector: XMLEventHandler {
    private enum Element {
        case root, point, time, speed, other
    }

    private var path: [Element] = []
    private var open: (line: Int, fix: Result<Fix, FixError>)?
    private var text: [UInt8] = []
    private(set) var records: [FixRecord] = []

    func xmlParser(_ parser: XMLStreamParser, didStart tag: XMLTag) throws(RouteError) {
        let element: Element
        if path.isEmpty {
            guard tag.hasLocalName("gpx") else {
                throw RouteError("not a GPX document: its root element is <\(tag.qualifiedName)>, not <gpx>")
            }
            element = .root
        } else if open == nil, tag.hasLocalName("trkpt") || tag.hasLocalName("rtept") {
            guard records.count < FixReader.maximumFixes else { throw RouteError(FixReader.tooMany().message) }
            element = .point
            open = (parser.currentLine, Self.position(tag))
        } else if open != nil, tag.hasLocalName("time"), path.last == .point {
            element = .time
            text = []
        } else if open != nil, tag.hasLocalName("speed") {
            // GPX 1.0's <speed>, or a device's extension (Garmin's gpxtpx:speed) deeper down.
            element = .speed
            text = []
        } else {
            element = .other
        }
        path.append(element)
    }

    func xmlParser(_ parser: XMLStreamParser, didEnd tag: XMLTag) throws(RouteError) {
        switch path.popLast() {
        case .point:
            if let open { records.append(FixRecord(line: open.line, fix: open.fix)) }
            open = nil
        case .time:
            let value = String(decoding: text, as: UTF8.self).trimmingWhitespace()
            if case .success(var fix)? = open?.fix {
                if let seconds = FixTime.seconds(iso8601: value) {
                    fix.time = seconds
                    open?.fix = .success(fix)
                } else {
                    open?.fix = .failure(FixError("<time> \"\(value.prefix(40))\" is not an ISO 8601 time with a zone"))
                }
            }
        case .speed:
            let value = String(decoding: text, as: UTF8.self).trimmingWhitespace()
            if case .success(var fix)? = open?.fix {
                if let speed = Double(value) {
                    fix.speed = speed
                    open?.fix = .success(fix)
                } else {
                    open?.fix = .failure(FixError("<speed> \"\(value.prefix(40))\" is not a number"))
                }
            }
        default:
            break
        }
    }

    func xmlParser(_ parser: XMLStreamParser, didFind text: UnsafeBufferPointer<UInt8>) {
        guard path.last == .time || path.last == .speed, self.text.count < 256 else { return }
        self.text.append(contentsOf: text.prefix(256))
    }

    private static func position(_ tag: XMLTag) -> Result<Fix, FixError> {
        guard let latitudeText = tag.value(of: "lat"), let longitudeText = tag.value(of: "lon") else {
            return .failure(FixError("the point has no lat or lon attribute"))
        }
        guard let latitude = Double(latitudeText.trimmingWhitespace()) else {
            return .failure(FixError("latitude \"\(latitudeText.prefix(40))\" is not a number"))
        }
        guard let longitude = Double(longitudeText.trimmingWhitespace()) else {
            return .failure(FixError("longitude \"\(longitudeText.prefix(40))\" is not a number"))
        }
        return .success(Fix(coordinate: Coordinate(latitude: latitude, longitude: longitude)))
    }
}
