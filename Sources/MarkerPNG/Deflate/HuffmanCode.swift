/// Canonical Huffman codes for one alphabet, at most `limit` bits long (RFC 1951 section 3.2.2),
/// bit-reversed for sending least significant first.
struct HuffmanCode {
    private(set) var lengths: [UInt8]
    /// Each symbol's code, bit-reversed, with its length above bit 16: one load gives both.
    private(set) var codes: [UInt32]

    /// Codes for `counts` (at most `Workspace.symbols` of them), built in `workspace`'s memory.
    init(counts: UnsafeBufferPointer<UInt32>, limit: Int, workspace: Workspace) {
        lengths = [UInt8](unsafeUninitializedCapacity: counts.count) { lengths, initialized in
            workspace.lengths(counts: counts, limit: limit, into: lengths)
            initialized = counts.count
        }
        codes = lengths.withUnsafeBufferPointer { lengths in
            [UInt32](unsafeUninitializedCapacity: lengths.count) { codes, initialized in
                Self.codes(lengths: lengths, into: codes)
                initialized = lengths.count
            }
        }
    }

    /// The code lengths for `counts`.
    static func lengths(counts: [UInt32], limit: Int) -> [UInt8] {
        counts.withUnsafeBufferPointer { HuffmanCode(counts: $0, limit: limit, workspace: Workspace()).lengths }
    }

    /// Canonical codes from lengths (shorter codes first, and in symbol order within a length),
    /// each with its length.
    private static func codes(lengths: UnsafeBufferPointer<UInt8>, into codes: UnsafeMutableBufferPointer<UInt32>) {
        withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 16) { next in
            next.initialize(repeating: 0)
            for length in lengths { next[Int(length & 15)] += 1 }
            // From counts per length to each length's first code.
            var code: UInt32 = 0
            var previousCount: UInt32 = 0
            for length in 1..<16 {
                let count = next[length]
                code = (code + previousCount) << 1
                next[length] = code
                previousCount = count
            }
            reversedBytes.withUnsafeBufferPointer { reversedBytes in
                for (symbol, length) in lengths.enumerated() {
                    guard length > 0 else {
                        codes[symbol] = 0
                        continue
                    }
                    let code = next[Int(length)]
                    next[Int(length)] = code + 1
                    let reversed = UInt32(reversedBytes[Int(code & 0xFF)]) << 8 | UInt32(reversedBytes[Int(code >> 8 & 0xFF)])
                    codes[symbol] = reversed >> (16 - UInt32(length)) | UInt32(length) << 16
                }
            }
        }
    }

    /// Each byte with its bits in the opposite order.
    private static let reversedBytes: [UInt8] = (0..<256).map { byte in
        var reversed: UInt8 = 0
        for bit in 0..<8 where byte & (1 << bit) != 0 { reversed |= 1 << (7 - bit) }
        return reversed
    }

    /// Memory for building codes, kept by a deflater from one block to the next: code building
    /// runs three times a marker, where allocating would cost as much as the work.
    final class Workspace {
        /// The largest alphabet: deflate's literals and lengths.
        static let symbols = 286
        /// Node weights (2n − 1 nodes), then as many again for sorting.
        private let weights = UnsafeMutablePointer<UInt64>.allocate(capacity: 3 * symbols)
        /// Each node's parent.
        private let parents = UnsafeMutablePointer<Int>.allocate(capacity: 2 * symbols)
        /// The leaves' symbols in rising weight.
        private let symbolsByWeight = UnsafeMutablePointer<Int>.allocate(capacity: symbols)
        private let buckets = UnsafeMutablePointer<Int>.allocate(capacity: 256)
        /// Leaves per code length, up to the longest limit (15) and the deepest tree (285).
        private let perLength = UnsafeMutablePointer<Int>.allocate(capacity: symbols)

        deinit {
            weights.deallocate()
            parents.deallocate()
            symbolsByWeight.deallocate()
            buckets.deallocate()
            perLength.deallocate()
        }

        /// Huffman's code lengths, then lengths over `limit` folded down as miniz and zlib do: the
        /// overflowing leaves go to the limit, and shorter codes are lengthened until the code is
        /// complete again. The rarest symbols get the longest codes.
        func lengths(counts: UnsafeBufferPointer<UInt32>, limit: Int, into lengths: UnsafeMutableBufferPointer<UInt8>) {
            lengths.initialize(repeating: 0)
            // Rising count, then rising symbol.
            var leafCount = 0
            for (symbol, count) in counts.prefix(Self.symbols).enumerated() where count > 0 {
                weights[leafCount] = UInt64(count) << 16 | UInt64(symbol)
                leafCount += 1
            }
            sort(UnsafeMutableBufferPointer(start: weights, count: leafCount), scratch: weights + leafCount)
            guard leafCount > 1 else {
                if leafCount == 1 { lengths[Int(weights[0] & 0xFFFF)] = 1 }
                return
            }
            for leaf in 0..<leafCount {
                symbolsByWeight[leaf] = Int(weights[leaf] & 0xFFFF)
                weights[leaf] >>= 16
            }
            // Two queues: leaves in rising weight, and merged nodes, which are made in rising weight.
            let nodeCount = 2 * leafCount - 1
            var made = leafCount
            var nextLeaf = 0
            var nextNode = leafCount
            while made < nodeCount {
                weights[made] = 0
                for _ in 0..<2 {
                    let lightest: Int
                    if nextLeaf < leafCount, nextNode >= made || weights[nextLeaf] <= weights[nextNode] {
                        lightest = nextLeaf
                        nextLeaf += 1
                    } else {
                        lightest = nextNode
                        nextNode += 1
                    }
                    parents[lightest] = made
                    weights[made] &+= weights[lightest]
                }
                made += 1
            }
            // Depths from the root down, over the weights: every node's parent was made after it.
            weights[nodeCount - 1] = 0
            for node in stride(from: nodeCount - 2, through: 0, by: -1) { weights[node] = weights[parents[node]] + 1 }
            perLength.initialize(repeating: 0, count: limit + 1)
            for leaf in 0..<leafCount { perLength[min(Int(weights[leaf]), limit)] += 1 }
            var kraft = 0
            for length in 1...limit { kraft += perLength[length] << (limit - length) }
            while kraft > 1 << limit {
                perLength[limit] -= 1
                for length in stride(from: limit - 1, to: 0, by: -1) where perLength[length] > 0 {
                    perLength[length] -= 1
                    perLength[length + 1] += 2
                    break
                }
                kraft -= 1
            }
            var leaf = 0
            for length in stride(from: limit, to: 0, by: -1) {
                for _ in 0..<perLength[length] {
                    lengths[symbolsByWeight[leaf]] = UInt8(length)
                    leaf += 1
                }
            }
        }

        /// Sorts distinct keys: insertion sort for a few, else by bytes, lowest first (LSD radix)
        /// through `scratch`, where a comparison sort of a few hundred keys costs several times as much.
        private func sort(_ values: UnsafeMutableBufferPointer<UInt64>, scratch: UnsafeMutablePointer<UInt64>) {
            guard values.count > 32 else {
                for index in values.indices.dropFirst() {
                    let value = values[index]
                    var slot = index
                    while slot > 0, values[slot - 1] > value {
                        values[slot] = values[slot - 1]
                        slot -= 1
                    }
                    values[slot] = value
                }
                return
            }
            let largest = values.max() ?? 0
            var source = values
            var target = UnsafeMutableBufferPointer(start: scratch, count: values.count)
            var shift: UInt64 = 0
            while shift < 64, largest >> shift != 0 {
                buckets.initialize(repeating: 0, count: 256)
                for value in source { buckets[Int(value >> shift & 0xFF)] += 1 }
                var start = 0
                for bucket in 0..<256 {
                    let size = buckets[bucket]
                    buckets[bucket] = start
                    start += size
                }
                for value in source {
                    let bucket = Int(value >> shift & 0xFF)
                    target[buckets[bucket]] = value
                    buckets[bucket] += 1
                }
                swap(&source, &target)
                shift += 8
            }
            if source.baseAddress != values.baseAddress { _ = values.update(fromContentsOf: source) }
        }
    }
}
