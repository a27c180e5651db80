/// Byte ranges to read, joined where near: the fewest requests while the bytes read stay within
/// a share (`slack`) of the bytes wanted, each request at most `maximumRequest` bytes.
public struct RangePlan: Sendable {
    /// The ranges asked for, in the order given.
    public let wanted: [Range<UInt64>]
    /// The ranges to read, in order along the archive.
    public let requests: [Range<UInt64>]

    /// Past this a joined request is split, so several can be in flight.
    public static let maximumRequest: UInt64 = 8 << 20

    public init(_ wanted: [Range<UInt64>], slack: Double) {
        self.wanted = wanted
        let sorted = Set(wanted.filter { !$0.isEmpty }).sorted { $0.lowerBound < $1.lowerBound }
        guard var current = sorted.first else {
            requests = []
            return
        }
        let wantedBytes = sorted.reduce(UInt64(0)) { $0 + UInt64($1.count) }
        // The gaps between neighbours, smallest first, joined while their sum stays within the slack.
        var gaps: [(index: Int, bytes: UInt64)] = []
        for index in sorted.indices.dropFirst() {
            let gap = sorted[index].lowerBound > sorted[index - 1].upperBound ? sorted[index].lowerBound - sorted[index - 1].upperBound : 0
            gaps.append((index, gap))
        }
        var budget = UInt64(slack * Double(wantedBytes))
        var joined = Set<Int>()
        for gap in gaps.sorted(by: { $0.bytes < $1.bytes }) {
            if gap.bytes == 0 {
                joined.insert(gap.index)
            } else if gap.bytes <= budget {
                budget -= gap.bytes
                joined.insert(gap.index)
            } else {
                break
            }
        }
        var requests: [Range<UInt64>] = []
        for index in sorted.indices.dropFirst() {
            let range = sorted[index]
            let end = max(current.upperBound, range.upperBound)
            if joined.contains(index) && end - current.lowerBound <= Self.maximumRequest {
                current = current.lowerBound..<end
            } else {
                requests.append(current)
                current = range
            }
        }
        requests.append(current)
        self.requests = requests
    }

    /// Bytes the requests read.
    public var requestedBytes: UInt64 { requests.reduce(0) { $0 + UInt64($1.count) } }

    /// Reads the requests from `source` and cuts each wanted range out of them, in the order wanted.
    public func fetch(from source: any ByteRangeSource) async throws -> [[UInt8]] {
        let read = try await source.read(requests)
        return wanted.map { range in
            // An empty range (a tile of no bytes) has no request: it may lie before every one.
            guard !range.isEmpty else { return [] }
            // The request holding the range: the last starting at or before it.
            var low = 0
            var high = requests.count - 1
            while low < high {
                let middle = (low + high + 1) / 2
                if requests[middle].lowerBound <= range.lowerBound { low = middle } else { high = middle - 1 }
            }
            guard requests.indices.contains(low), read.indices.contains(low) else { return [] }
            let request = requests[low]
            let bytes = read[low]
            guard range.lowerBound >= request.lowerBound else { return [] }
            let start = Int(range.lowerBound - request.lowerBound)
            let end = min(Int(range.upperBound - request.lowerBound), bytes.count)
            guard start <= end else { return [] }
            return Array(bytes[start..<end])
        }
    }
}
