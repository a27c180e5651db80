public import MarkerArchive
import Synchronization

/// Tiles from an XYZ URL template (`https://tiles.example.com/{z}/{x}/{y}.png`; `{-y}` for rows
/// counted from the south), several in flight. A 404 or 204 is a tile the source lacks.
public struct XYZSource: TileSource {
    public let info: TileSourceInfo
    public let template: String
    private let fetcher: HTTPFetcher
    /// Tiles fetched to learn the type and mean size, handed on with the rest.
    private let probed: [TileAddress: [UInt8]?]

    /// The most bytes one tile may have.
    static let tileLimit = 16 << 20

    /// Whether `text` is an XYZ template: an http(s) URL with {z}, {x} and {y} or {-y}.
    public static func isTemplate(_ text: String) -> Bool {
        (text.hasPrefix("http://") || text.hasPrefix("https://")) && text.contains("{z}") && text.contains("{x}")
            && (text.contains("{y}") || text.contains("{-y}"))
    }

    /// Opens the template, fetching up to `probes` of `tiles` spread through them to learn what
    /// the tiles are and what one weighs; `tileSize` where the user gives it.
    public init(template: String, fetcher: HTTPFetcher, tiles: [TileAddress], probes: Int = 8, tileSize: Int?) async throws {
        guard Self.isTemplate(template) else { throw SourceError("\(template) is not an XYZ URL template with {z}, {x} and {y}") }
        self.template = template
        self.fetcher = fetcher
        let sample = tiles.isEmpty ? [] : (0..<min(probes, tiles.count)).map { tiles[$0 * tiles.count / min(probes, tiles.count)] }
        var probed: [TileAddress: [UInt8]?] = [:]
        for address in sample { probed[address] = try await Self.tile(address, template: template, fetcher: fetcher) }
        self.probed = probed
        let present = probed.values.compactMap { $0 }
        let type = present.first.map(Self.type(of:)) ?? Self.type(ofTemplate: template)
        let compression: PMTiles.Compression = present.first.map { $0.starts(with: [0x1F, 0x8B]) ? .gzip : .none } ?? (type == .mvt ? .gzip : .none)
        let mean = present.isEmpty ? nil : Double(present.reduce(0) { $0 + $1.count }) / Double(present.count)
        info = TileSourceInfo(tileType: type, tileCompression: type.isRaster ? .none : compression, metadata: Array("{}".utf8), tileSize: tileSize, meanTileBytes: mean)
    }

    public func fetch(_ tiles: [TileAddress], deliver: @Sendable (TileAddress, [UInt8]) async throws -> Void) async throws -> FetchCounts {
        var absent = 0
        var pending = Set(tiles).sorted()[...]
        try await withThrowingTaskGroup(of: (TileAddress, [UInt8]?).self) { group in
            var running = 0
            func launch() {
                guard let address = pending.popFirst() else { return }
                running += 1
                if let known = probed[address] {
                    group.addTask { (address, known) }
                } else {
                    group.addTask { (address, try await Self.tile(address, template: template, fetcher: fetcher)) }
                }
            }
            for _ in 0..<(fetcher.options.concurrency * 2) { launch() }
            while running > 0, let (address, bytes) = try await group.next() {
                running -= 1
                if let bytes { try await deliver(address, bytes) } else { absent += 1 }
                launch()
            }
        }
        // Everything fetched, the probes included.
        let after = fetcher.counts
        return FetchCounts(absent: absent, requests: after.requests, bytes: after.bytes)
    }

    /// The URL of a tile.
    public static func url(_ template: String, _ address: TileAddress) -> String {
        template.replacingEvery("{z}", with: String(address.zoom)).replacingEvery("{x}", with: String(address.x))
            .replacingEvery("{-y}", with: String(address.tmsRow)).replacingEvery("{y}", with: String(address.y))
    }

    /// One tile, nil where the server has none.
    static func tile(_ address: TileAddress, template: String, fetcher: HTTPFetcher) async throws -> [UInt8]? {
        let url = url(template, address)
        let response = try await fetcher.get(url) { status, _ in
            switch status {
            case 200: return Self.tileLimit
            case 204, 404: return nil
            default: throw SourceError("\(url): HTTP \(status)")
            }
        }
        return response.status == 200 ? response.body : nil
    }

    static func type(of bytes: [UInt8]) -> PMTiles.TileType {
        if bytes.starts(with: [0x89, 0x50, 0x4E, 0x47]) { return .png }
        if bytes.starts(with: [0xFF, 0xD8, 0xFF]) { return .jpeg }
        if bytes.count >= 12, bytes.starts(with: Array("RIFF".utf8)), Array(bytes[8..<12]) == Array("WEBP".utf8) { return .webp }
        return .mvt
    }

    static func type(ofTemplate template: String) -> PMTiles.TileType {
        let path = template.split(separator: "?").first.map(String.init) ?? template
        let suffix = path.split(separator: ".").last.map(String.init) ?? ""
        return PMTiles.TileType(format: suffix)
    }
}

extension String {
    /// Every `target` replaced with `replacement`, without Foundation.
    func replacingEvery(_ target: String, with replacement: String) -> String {
        guard !target.isEmpty else { return self }
        var result = ""
        var rest = self[...]
        while let range = rest.firstRange(of: target) {
            result += rest[..<range.lowerBound]
            result += replacement
            rest = rest[range.upperBound...]
        }
        return result + rest
    }
}
