public import MarkerSpec

/// A sprite sheet named by what it holds, `night_km_d1-24_s0_e24.04_cs0e8.6`: one theme's pictures
/// spelled out, so any instance of the service can draw the sheet again from its URL alone and check
/// the URL's content hash against what it drew.
///
/// After the theme and the unit come the items, all joined by `_`: `d5` a distance marker, `d1-24`
/// every whole distance from 1 to 24, `t5` and `t1-24` the same counting down (`−5km`), `s0` and
/// `e24.04` a start and an end, and `c` with its parts (`cs0e8.6`, `cd3d17`) a combined marker. Distance
/// markers come first, then countdowns, each in increasing order and whole runs as ranges; the
/// others follow in the order given. One set of pictures has one spelling: no other spelling of it reads.
public struct SheetSpelling: Sendable, Hashable, CustomStringConvertible {
    /// Short enough for any URL once a path, ratio, extension and hash are added.
    public static let maximumLength = 1024

    public let theme: Theme
    public let unit: Marker.Unit
    /// The pictures, in the order the sheet is packed in.
    public let markers: [Marker]
    /// The spelling itself.
    public let description: String

    /// The spelling of `markers` (each once, all in `unit`) in `theme`.
    /// - Throws: `MapError` if there are none, a marker is in another unit, or the spelling is longer than `maximumLength`.
    public init(theme: Theme, unit: Marker.Unit, markers: [Marker]) throws(MapError) {
        guard !markers.isEmpty else { throw MapError(.badChoice, "a sprite sheet needs at least one picture") }
        guard markers.allSatisfy({ $0.unit == unit }) else {
            throw MapError(.badChoice, "every picture of a sprite sheet reads in its unit, \(unit.rawValue)")
        }
        self.theme = theme
        self.unit = unit
        self.markers = Self.canonicalOrder(markers)
        description = Self.spell(theme: theme, unit: unit, markers: self.markers)
        guard description.utf8.count <= Self.maximumLength else {
            throw MapError(.spriteTooLarge, "the sprite sheet's name would be \(description.utf8.count) characters, over \(Self.maximumLength)")
        }
    }

    /// Reads a spelling back, or nil if it is not one: not canonical, over `maximumLength`, or
    /// holding more than `maximumPictures` (counted before any is made).
    public init?(parsing text: Substring, maximumPictures: Int) {
        guard text.utf8.count <= Self.maximumLength else { return nil }
        let fields = text.split(separator: "_", omittingEmptySubsequences: false)
        guard fields.count >= 3, let theme = Theme.named(String(fields[0])), let unit = Marker.Unit(rawValue: String(fields[1])) else {
            return nil
        }
        var items: [Item] = []
        var pictures = 0
        for field in fields.dropFirst(2) {
            guard let item = Item(field) else { return nil }
            pictures += item.count
            guard pictures <= maximumPictures else { return nil }
            items.append(item)
        }
        var markers: [Marker] = []
        for item in items {
            guard let made = item.markers(unit: unit) else { return nil }
            markers += made
        }
        guard let spelling = try? SheetSpelling(theme: theme, unit: unit, markers: markers), spelling.description == text else {
            return nil
        }
        self = spelling
    }

    /// `markers` split over as few spellings as the limits allow: each at most `maximumPictures`
    /// pictures and `maximumLength` characters, and `fits` (e.g. packs into one sheet of the largest
    /// size a GPU takes). Halves a part until it fits, so the parts keep the canonical order.
    /// - Throws: `MapError` if a single picture does not fit.
    public static func split(
        theme: Theme, unit: Marker.Unit, markers: [Marker], maximumPictures: Int, fits: ([Marker]) throws(MapError) -> Bool
    ) throws(MapError) -> [SheetSpelling] {
        let ordered = canonicalOrder(markers)
        guard !ordered.isEmpty else { return [] }
        let parts = (ordered.count + maximumPictures - 1) / max(1, maximumPictures)
        var spellings: [SheetSpelling] = []
        for part in 0..<parts {
            let range = (part * ordered.count / parts)..<((part + 1) * ordered.count / parts)
            try halving(Array(ordered[range]))
        }
        return spellings

        func halving(_ chunk: [Marker]) throws(MapError) {
            let spelling = try? SheetSpelling(theme: theme, unit: unit, markers: chunk)
            if let spelling, try fits(spelling.markers) {
                spellings.append(spelling)
                return
            }
            guard chunk.count > 1 else {
                throw MapError(.spriteTooLarge, "the picture \(chunk.first?.label ?? "") does not fit on a sprite sheet")
            }
            try halving(Array(chunk[..<(chunk.count / 2)]))
            try halving(Array(chunk[(chunk.count / 2)...]))
        }
    }

    /// Distance markers first, then countdowns, each by increasing reading, then the others in their order; each once.
    private static func canonicalOrder(_ markers: [Marker]) -> [Marker] {
        var seen = Set<Marker>()
        let unique = markers.filter { seen.insert($0).inserted }
        // By the value read, then the spelling, so `7.5` and `7,5` (two pictures) have one order.
        func ascending(_ kind: Marker.Kind) -> [Marker] {
            unique.filter { $0.kind == kind }.sorted {
                let (left, right) = ($0.parts[0].value, $1.parts[0].value)
                return left != right ? left < right : $0.number < $1.number
            }
        }
        return ascending(.distance) + ascending(.countdown) + unique.filter { $0.kind != .distance && $0.kind != .countdown }
    }

    private static func spell(theme: Theme, unit: Marker.Unit, markers: [Marker]) -> String {
        var items: [String] = []
        var run: (letter: String, first: Int, last: Int)? = nil
        func endRun() {
            if let run { items.append(run.letter + (run.first == run.last ? "\(run.first)" : "\(run.first)-\(run.last)")) }
            run = nil
        }
        for marker in markers {
            switch marker.kind {
            case .distance, .countdown:
                let letter = letter(marker.kind)
                guard let whole = Int(marker.number) else {
                    endRun()
                    items.append(letter + marker.number)
                    continue
                }
                if let current = run, current.letter == letter, current.last + 1 == whole {
                    run = (letter, current.first, whole)
                } else {
                    endRun()
                    run = (letter, whole, whole)
                }
            case .start, .end:
                endRun()
                items.append(letter(marker.kind) + marker.number)
            case .combined:
                endRun()
                items.append("c" + marker.parts.map { letter($0.kind) + $0.number }.joined())
            }
        }
        endRun()
        return ([theme.name, unit.rawValue] + items).joined(separator: "_")
    }

    private static func letter(_ kind: Marker.Kind) -> String {
        switch kind {
        case .start: "s"
        case .end: "e"
        case .distance: "d"
        case .countdown: "t"
        case .combined: "c"
        }
    }

    /// One item of a spelling, read but not yet checked.
    private enum Item {
        case distances(Marker.Kind, ClosedRange<Int>)
        case single(Marker.Kind, Substring)
        case combined([(Marker.Kind, Substring)])

        init?(_ text: Substring) {
            guard let first = text.first else { return nil }
            let rest = text.dropFirst()
            switch first {
            case "d", "t":
                let kind: Marker.Kind = first == "d" ? .distance : .countdown
                if let dash = rest.firstIndex(of: "-") {
                    guard let low = Self.whole(rest[..<dash]), let high = Self.whole(rest[rest.index(after: dash)...]), low < high else {
                        return nil
                    }
                    self = .distances(kind, low...high)
                } else {
                    self = .single(kind, rest)
                }
            case "s": self = .single(.start, rest)
            case "e": self = .single(.end, rest)
            case "c":
                var parts: [(Marker.Kind, Substring)] = []
                var remaining = rest
                while let letter = remaining.first, parts.count <= Marker.maximumParts {
                    guard let kind = Self.partKinds[letter] else { return nil }
                    let digits = remaining.dropFirst().prefix { Self.partKinds[$0] == nil }
                    parts.append((kind, digits))
                    remaining = remaining.dropFirst(1 + digits.count)
                }
                guard remaining.isEmpty else { return nil }
                self = .combined(parts)
            default: return nil
            }
        }

        /// The letters a combined marker's parts are spelled with, and their kinds.
        private static let partKinds: [Character: Marker.Kind] = ["s": .start, "e": .end, "d": .distance, "t": .countdown]

        /// How many pictures the item stands for.
        var count: Int {
            if case .distances(_, let range) = self { return range.count }
            return 1
        }

        func markers(unit: Marker.Unit) -> [Marker]? {
            switch self {
            case .distances(let kind, let range):
                var markers: [Marker] = []
                for distance in range {
                    guard let marker = try? Marker(kind: kind, distance: Double(distance), unit: unit) else { return nil }
                    markers.append(marker)
                }
                return markers
            case .single(let kind, let number):
                guard let part = Marker.Part(kind: kind, spelled: number), let marker = try? Marker(part, unit: unit)
                else {
                    return nil
                }
                return [marker]
            case .combined(let spelled):
                var parts: [Marker.Part] = []
                for (kind, number) in spelled {
                    guard let part = Marker.Part(kind: kind, spelled: number) else { return nil }
                    parts.append(part)
                }
                guard let marker = try? Marker(combining: parts, unit: unit) else { return nil }
                return [marker]
            }
        }

        /// A whole number of at most 6 ASCII digits (distances go to 100,000).
        private static func whole(_ text: Substring) -> Int? {
            guard !text.isEmpty, text.utf8.count <= 6, text.utf8.allSatisfy({ (0x30...0x39).contains($0) }) else { return nil }
            return Int(text)
        }
    }
}
