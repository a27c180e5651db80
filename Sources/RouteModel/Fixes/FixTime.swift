/// Reading and writing UTC times as ISO 8601 (`2024-05-01T10:00:00Z`, `…:00.250+02:00`), without Foundation.
public enum FixTime {
    /// Seconds since 1970-01-01T00:00:00Z for an ISO 8601 date and time with a zone (`Z` or `±hh:mm`);
    /// nil for anything else.
    public static func seconds(iso8601 text: some StringProtocol) -> Double? {
        let bytes = Array(text.utf8)
        var index = 0
        func digits(_ count: Int) -> Int? {
            guard index + count <= bytes.count else { return nil }
            var value = 0
            for byte in bytes[index..<(index + count)] {
                guard (0x30...0x39).contains(byte) else { return nil }
                value = value * 10 + Int(byte - 0x30)
            }
            index += count
            return value
        }
        func expect(_ byte: UInt8) -> Bool {
            guard index < bytes.count, bytes[index] == byte else { return false }
            index += 1
            return true
        }
        guard let year = digits(4), expect(0x2D), let month = digits(2), expect(0x2D), let day = digits(2) else { return nil }
        guard index < bytes.count, bytes[index] == 0x54 || bytes[index] == 0x74 || bytes[index] == 0x20 else { return nil }
        index += 1
        guard let hour = digits(2), expect(0x3A), let minute = digits(2), expect(0x3A), let second = digits(2) else { return nil }
        var fraction = 0.0
        if expect(0x2E) {
            var scale = 0.1
            var any = false
            while index < bytes.count, (0x30...0x39).contains(bytes[index]) {
                fraction += Double(bytes[index] - 0x30) * scale
                scale /= 10
                index += 1
                any = true
            }
            guard any else { return nil }
        }
        var zone = 0
        if expect(0x5A) || expect(0x7A) {
            zone = 0
        } else if index < bytes.count, bytes[index] == 0x2B || bytes[index] == 0x2D {
            let sign = bytes[index] == 0x2D ? -1 : 1
            index += 1
            guard let zoneHours = digits(2) else { return nil }
            _ = expect(0x3A)
            guard let zoneMinutes = digits(2), zoneHours <= 23, zoneMinutes <= 59 else { return nil }
            zone = sign * (zoneHours * 3600 + zoneMinutes * 60)
        } else {
            return nil
        }
        guard index == bytes.count else { return nil }
        guard (1...12).contains(month), (1...daysIn(month: month, year: year)).contains(day), hour <= 23, minute <= 59, second <= 60 else {
            return nil
        }
        let days = daysFromCivil(year: year, month: month, day: day)
        let seconds = days * 86_400 + hour * 3600 + minute * 60 + second - zone
        return Double(seconds) + fraction
    }

    /// `2024-05-01T10:00:00Z`, or with milliseconds when the time has a fraction.
    public static func iso8601(_ seconds: Double) -> String {
        guard seconds.isFinite, abs(seconds) < 1e11 else { return "\(seconds)" }
        let whole = Int(seconds.rounded(.down))
        let milliseconds = Int(((seconds - Double(whole)) * 1000).rounded())
        let (wholeSeconds, millis) = milliseconds == 1000 ? (whole + 1, 0) : (whole, milliseconds)
        var days = wholeSeconds / 86_400
        var rest = wholeSeconds % 86_400
        if rest < 0 {
            rest += 86_400
            days -= 1
        }
        let (year, month, day) = civil(fromDays: days)
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        let yearText = String(year).count < 4 ? String(repeating: "0", count: 4 - String(year).count) + String(year) : String(year)
        var text = "\(yearText)-\(two(month))-\(two(day))T\(two(rest / 3600)):\(two(rest / 60 % 60)):\(two(rest % 60))"
        if millis != 0 {
            let padded = millis < 10 ? "00\(millis)" : (millis < 100 ? "0\(millis)" : "\(millis)")
            text += ".\(padded)"
        }
        return text + "Z"
    }

    private static func isLeap(_ year: Int) -> Bool { year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) }

    private static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: isLeap(year) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// Days since 1970-01-01 (Howard Hinnant's algorithm).
    private static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    private static func civil(fromDays days: Int) -> (Int, Int, Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}
