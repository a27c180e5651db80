public import RouteModel

/// Reads fixes in GPX, CSV or NDJSON: a line that is not a fix is reported by its number and the rest read on.
public enum FixReader {
    /// The most fixes one input may hold.
    public static let maximumFixes = 2_000_000
    /// The longest line of NDJSON or CSV read: a fix with every field spelled out takes under 200 bytes.
    public static let maximumLineBytes = 4096

    /// Every fix in `bytes`, in order; `format` nil = from the content (`<` GPX, `{` NDJSON, else CSV).
    /// - Throws: `FixError` when the input as a whole cannot be read (not XML, no header, too many fixes).
    public static func read(_ bytes: [UInt8], format: FixFormat?) throws(FixError) -> [FixRecord] {
        let start = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        let first = bytes[start...].first { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }
        guard let first else { throw FixError("the input has no fixes") }
        let resolved = format ?? (first == UInt8(ascii: "<") ? .gpx : first == UInt8(ascii: "{") ? .ndjson : .csv)
        let records: [FixRecord]
        switch resolved {
        case .gpx: records = try GPXFixes.read(Array(bytes[start...]))
        case .csv: records = try csv(Array(bytes[start...]))
        case .ndjson: records = try ndjson(Array(bytes[start...]))
        }
        guard !records.isEmpty else { throw FixError("the input has no fixes") }
        return records
    }

    /// The fixes of an NDJSON document, a line each; blank lines are skipped.
    static func ndjson(_ bytes: [UInt8]) throws(FixError) -> [FixRecord] {
        var records: [FixRecord] = []
        for (number, line) in lines(of: bytes) where !isBlank(line) {
            guard records.count < maximumFixes else { throw tooMany() }
            guard line.count <= maximumLineBytes else {
                records.append(FixRecord(line: number, fix: .failure(lineTooLong(bytes: line.count))))
                continue
            }
            records.append(FixRecord(line: number, fix: ndjsonFix(Array(line))))
        }
        return records
    }

    /// One NDJSON line's fix: an object with numbers `lat` and `lon`, and optionally `time` (ISO 8601
    /// or seconds since 1970), `accuracy` and `speed` (numbers or null).
    public static func ndjsonFix(_ line: [UInt8]) -> Result<Fix, FixError> {
        let value: JSONNode
        do {
            value = try JSONParser.parse(line, flatteningNumberArrays: false)
        } catch {
            return .failure(FixError("not JSON: \(error.message)"))
        }
        guard case .object = value else { return .failure(FixError("a fix is a JSON object, not \(value.kindDescription)")) }
        func number(_ key: String, required: Bool) -> Result<Double?, FixError> {
            switch value[key] {
            case .number(let number)?: return .success(number)
            case nil, .null?: return required ? .failure(FixError("the fix has no \"\(key)\"")) : .success(nil)
            case let other?: return .failure(FixError("\"\(key)\" is \(other.kindDescription), not a number"))
            }
        }
        do {
            guard let latitude = try number("lat", required: true).get(), let longitude = try number("lon", required: true).get() else {
                return .failure(FixError("the fix has no \"lat\" or \"lon\""))
            }
            var time: Double? = nil
            switch value["time"] {
            case .number(let seconds)?: time = seconds
            case .string(let text)?:
                guard let seconds = FixTime.seconds(iso8601: text) else {
                    return .failure(FixError("\"time\" \"\(text.prefix(40))\" is not an ISO 8601 time with a zone"))
                }
                time = seconds
            case nil, .null?: break
            case let other?: return .failure(FixError("\"time\" is \(other.kindDescription), not a time"))
            }
            return .success(
                Fix(
                    coordinate: Coordinate(latitude: latitude, longitude: longitude), time: time,
                    accuracy: try number("accuracy", required: false).get(), speed: try number("speed", required: false).get()))
        } catch {
            return .failure(error)
        }
    }

    /// The fixes of a CSV document with a header; blank lines are skipped.
    static func csv(_ bytes: [UInt8]) throws(FixError) -> [FixRecord] {
        var records: [FixRecord] = []
        var columns: CSVColumns? = nil
        for (number, line) in lines(of: bytes) where !isBlank(line) {
            guard line.count <= maximumLineBytes else {
                guard columns != nil else { throw FixError("line \(number): the CSV header is longer than \(maximumLineBytes) bytes") }
                guard records.count < maximumFixes else { throw tooMany() }
                records.append(FixRecord(line: number, fix: .failure(lineTooLong(bytes: line.count))))
                continue
            }
            let cells = line.split(separator: UInt8(ascii: ","), omittingEmptySubsequences: false).map {
                String(decoding: $0, as: UTF8.self).trimmingWhitespace()
            }
            guard let known = columns else {
                columns = try CSVColumns(header: cells, line: number)
                continue
            }
            guard records.count < maximumFixes else { throw tooMany() }
            records.append(FixRecord(line: number, fix: known.fix(from: cells)))
        }
        guard columns != nil else { throw FixError("the CSV has no header line") }
        return records
    }

    /// Lines by their 1-based numbers, without their line ends.
    static func lines(of bytes: [UInt8]) -> [(Int, ArraySlice<UInt8>)] {
        var result: [(Int, ArraySlice<UInt8>)] = []
        var number = 1
        var start = bytes.startIndex
        for index in bytes.indices where bytes[index] == 0x0A {
            var end = index
            if end > start, bytes[end - 1] == 0x0D { end -= 1 }
            result.append((number, bytes[start..<end]))
            number += 1
            start = index + 1
        }
        if start < bytes.endIndex { result.append((number, bytes[start...])) }
        return result
    }

    /// Whether a line holds nothing but spaces, tabs and carriage returns (a blank line is skipped, not a fix).
    public static func isBlank(_ line: ArraySlice<UInt8>) -> Bool { line.allSatisfy { $0 == 0x20 || $0 == 0x09 || $0 == 0x0D } }

    /// Why a line too long to be a fix is not read.
    public static func lineTooLong(bytes: Int) -> FixError {
        FixError("the line is \(bytes) bytes long; a fix takes at most \(maximumLineBytes)")
    }

    static func tooMany() -> FixError { FixError("more than \(maximumFixes) fixes in one input") }
}

/// Where a CSV's header puts each field.
struct CSVColumns {
    var latitude: Int
    var longitude: Int
    var time: Int?
    var accuracy: Int?
    var speed: Int?

    init(header: [String], line: Int) throws(FixError) {
        func column(_ names: [String]) -> Int? { header.firstIndex { names.contains($0.lowercased()) } }
        guard let latitude = column(["lat", "latitude"]), let longitude = column(["lon", "lng", "long", "longitude"]) else {
            throw FixError("line \(line): the CSV header names no lat and lon columns (it reads \"\(header.joined(separator: ",").prefix(80))\")")
        }
        self.latitude = latitude
        self.longitude = longitude
        time = column(["time", "timestamp"])
        accuracy = column(["accuracy", "horizontal_accuracy", "horizontalaccuracy"])
        speed = column(["speed"])
    }

    func fix(from cells: [String]) -> Result<Fix, FixError> {
        func cell(_ index: Int?) -> String? {
            guard let index, index < cells.count, !cells[index].isEmpty else { return nil }
            return cells[index]
        }
        func number(_ index: Int?, _ name: String, required: Bool) -> Result<Double?, FixError> {
            guard let text = cell(index) else {
                return required ? .failure(FixError("the line has no \(name)")) : .success(nil)
            }
            guard let value = Double(text) else { return .failure(FixError("\(name) \"\(text.prefix(40))\" is not a number")) }
            return .success(value)
        }
        do {
            guard let latitude = try number(latitude, "latitude", required: true).get(),
                let longitude = try number(longitude, "longitude", required: true).get()
            else { return .failure(FixError("the line has no latitude or longitude")) }
            var seconds: Double? = nil
            if let text = cell(time) {
                guard let value = Double(text) ?? FixTime.seconds(iso8601: text) else {
                    return .failure(FixError("time \"\(text.prefix(40))\" is neither ISO 8601 with a zone nor seconds since 1970"))
                }
                seconds = value
            }
            return .success(
                Fix(
                    coordinate: Coordinate(latitude: latitude, longitude: longitude), time: seconds,
                    accuracy: try number(accuracy, "accuracy", required: false).get(), speed: try number(speed, "speed", required: false).get()))
        } catch {
            return .failure(error)
        }
    }
}

extension FixReader {
    /// Reads the fixes in a file, refusing more than `Route.maximumInputBytes`; without a `format`, the
    /// extension decides (.gpx, .csv, .ndjson), and failing that the content.
    /// - Throws: `FixError` whose message starts with the path.
    public static func load(path: String, format: FixFormat?) throws(FixError) -> [FixRecord] {
        let bytes: [UInt8]
        do {
            bytes = try InputFile.read(path: path, limit: Route.maximumInputBytes)
        } catch {
            throw FixError(error.message)
        }
        do {
            return try read(bytes, format: format ?? FixFormat(fileName: path))
        } catch {
            throw FixError("\(InputFile.displayName(path)): \(error.message)")
        }
    }
}
