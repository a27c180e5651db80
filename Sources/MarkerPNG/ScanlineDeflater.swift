import CPNG

/// A zlib stream for PNG scanlines that looks for repeats only where a marker has them: in the
/// pixel before, the byte before and the row above.
///
/// libdeflate at level 1 hashes every position and searches its whole window, and spends most
/// of a marker's encoding time doing so (~36 µs of ~45 @2x). A marker's repeats are nearly all
/// transparent runs, flat pill and shadow rows, and rows equal to the one above; matching only
/// those three distances finds them in a few loads per byte. One dynamic Huffman block follows
/// (RFC 1951) per 256 KiB, with codes built from its own counts. Measured (`markerpaint-bench
/// deflate`, real markers' scanlines): 23.2 µs @2x against libdeflate level 1's 35.4, 12.5 against
/// 13.8 @1x, for 1.13× and 1.04× its bytes. Any zlib reader reads the stream, and the same input
/// always gives the same bytes: nothing carries over from one image to the next.
package struct ScanlineDeflater: ~Copyable {
    /// Literals are their byte; a match carries its codes, as `DeflateTables.match` packs them.
    private var tokens: UnsafeMutablePointer<UInt32>
    private var output: UnsafeMutableRawPointer
    private var outputCapacity = 0
    private let workspace = HuffmanCode.Workspace()

    private static let minimumMatch = 3
    private static let maximumMatch = 258
    private static let window = 32768
    /// Input bytes per deflate block: each has codes of its own, and the token buffer stays at
    /// 1 MiB however large the image (a marker @3x is ~35 KB, one block).
    private static let blockBytes = 1 << 18

    package init() {
        tokens = .allocate(capacity: Self.blockBytes)
        output = .allocate(byteCount: 1, alignment: 8)
    }

    deinit {
        tokens.deallocate()
        output.deallocate()
    }

    /// The zlib stream of `input`, rows of `rowBytes` (filter byte included) with pixels of
    /// `pixelBytes`, valid until the next call.
    package mutating func compress(_ input: UnsafeRawBufferPointer, rowBytes: Int, pixelBytes: Int) -> UnsafeRawBufferPointer {
        reserve(2)
        output.storeBytes(of: 0x78, toByteOffset: 0, as: UInt8.self)  // deflate, 32 KiB window
        output.storeBytes(of: 0x01, toByteOffset: 1, as: UInt8.self)  // fastest level; (0x7801 % 31 == 0)
        var written = 2
        var writer = BitWriter(at: output + written)
        var start = 0
        repeat {
            let end = min(input.count, start + Self.blockBytes)
            // A block's literals cost at most 15 bits a byte and its matches (≥ 3 bytes) at most 48:
            // below 2 bytes a byte, plus its header (< 300 bytes) and the 8 bytes a store may reach past.
            reserve(written + 2 * (end - start) + 512)
            writer.resume(at: output + written)
            writeBlock(input, from: start, to: end, rowBytes: rowBytes, pixelBytes: pixelBytes, final: end == input.count, to: &writer)
            written = writer.position - output
            start = end
        } while start < input.count
        writer.resume(at: output + written)
        written = writer.finish() - output
        reserve(written + 4)
        let adler = libdeflate_adler32(1, input.baseAddress, input.count)
        output.storeBytes(of: adler.bigEndian, toByteOffset: written, as: UInt32.self)
        return UnsafeRawBufferPointer(start: output, count: written + 4)
    }

    /// Grows the output buffer, keeping what is in it, to at least `capacity` bytes.
    private mutating func reserve(_ capacity: Int) {
        guard outputCapacity < capacity else { return }
        let grown = UnsafeMutableRawPointer.allocate(byteCount: max(capacity, 2 * outputCapacity), alignment: 8)
        grown.copyMemory(from: output, byteCount: outputCapacity)
        output.deallocate()
        output = grown
        outputCapacity = max(capacity, 2 * outputCapacity)
    }

    /// One dynamic-Huffman block of `input[start..<end]`; matches reach back before `start`.
    private func writeBlock(
        _ input: UnsafeRawBufferPointer, from start: Int, to end: Int, rowBytes: Int, pixelBytes: Int, final: Bool,
        to writer: inout BitWriter
    ) {
        var literalCounts = [UInt32](repeating: 0, count: 286)
        var distanceCounts = [UInt32](repeating: 0, count: 30)
        let tokenCount = literalCounts.withUnsafeMutableBufferPointer { literals in
            distanceCounts.withUnsafeMutableBufferPointer { distances in
                Self.parse(
                    input, from: start, to: end, rowBytes: rowBytes, pixelBytes: pixelBytes, into: tokens, literals: literals,
                    distances: distances)
            }
        }
        literalCounts[256] += 1
        // A decoder needs two codes in each tree to read one bit a symbol; zlib forces the same.
        Self.ensureTwoCodes(&literalCounts)
        Self.ensureTwoCodes(&distanceCounts)
        let literalTree = literalCounts.withUnsafeBufferPointer { HuffmanCode(counts: $0, limit: 15, workspace: workspace) }
        let distanceTree = distanceCounts.withUnsafeBufferPointer { HuffmanCode(counts: $0, limit: 15, workspace: workspace) }
        writer.put(final ? 1 : 0, 1)
        writer.put(2, 2)  // dynamic Huffman codes
        writeTrees(literalTree, distanceTree, to: &writer)
        Self.writeTokens(tokens, count: tokenCount, literalTree, distanceTree, to: &writer)
        writer.put(code: literalTree.codes[256])
    }

    /// Greedy matching against the three distances, with symbol counts for the codes.
    private static func parse(
        _ input: UnsafeRawBufferPointer, from start: Int, to count: Int, rowBytes: Int, pixelBytes: Int,
        into tokens: UnsafeMutablePointer<UInt32>, literals: UnsafeMutableBufferPointer<UInt32>, distances: UnsafeMutableBufferPointer<UInt32>
    ) -> Int {
        guard let base = input.baseAddress?.assumingMemoryBound(to: UInt8.self) else { return 0 }
        // A distance out of the window, or a pixel of one byte, falls back to the byte before.
        let up = rowBytes <= window ? rowBytes : 1
        let left = pixelBytes <= window ? pixelBytes : 1
        let everyDistance = max(up, left)
        let lengths = DeflateTables.lengths
        // The three distances' parts of a match token.
        let (byteBeforePart, pixelBeforePart, rowAbovePart) = (DeflateTables.distance(1), DeflateTables.distance(left), DeflateTables.distance(up))
        var position = start
        var tokenCount = 0
        while position < count {
            // Most bytes that start no match are told apart by one load and three compares: a match
            // needs its first three bytes equal.
            if position >= everyDistance, position + 8 <= count {
                let here = UInt64(littleEndian: UnsafeRawPointer(base + position).loadUnaligned(as: UInt64.self))
                let firstThree: UInt64 = 0xFF_FFFF
                let before = UInt64(littleEndian: UnsafeRawPointer(base + position - 1).loadUnaligned(as: UInt64.self))
                let pixelBefore = UInt64(littleEndian: UnsafeRawPointer(base + position - left).loadUnaligned(as: UInt64.self))
                let above = UInt64(littleEndian: UnsafeRawPointer(base + position - up).loadUnaligned(as: UInt64.self))
                if (here ^ before) & firstThree != 0, (here ^ pixelBefore) & firstThree != 0, (here ^ above) & firstThree != 0 {
                    let byte = UInt8(truncatingIfNeeded: here)
                    tokens[tokenCount] = UInt32(byte)
                    literals[Int(byte)] &+= 1
                    position += 1
                    tokenCount += 1
                    continue
                }
            }
            let limit = min(maximumMatch, count - position)
            var length = 0
            var distancePart: UInt32 = 0
            if position >= 1 {
                let found = matchLength(base + position, base + position - 1, limit: limit)
                if found > length { (length, distancePart) = (found, byteBeforePart) }
            }
            if position >= left, length < limit {
                let found = matchLength(base + position, base + position - left, limit: limit)
                if found > length { (length, distancePart) = (found, pixelBeforePart) }
            }
            if position >= up, length < limit {
                let found = matchLength(base + position, base + position - up, limit: limit)
                if found > length { (length, distancePart) = (found, rowAbovePart) }
            }
            if length >= minimumMatch {
                let token = lengths[length] | distancePart
                tokens[tokenCount] = token
                literals[257 + DeflateTables.lengthCode(of: token)] &+= 1
                distances[DeflateTables.distanceCode(of: token)] &+= 1
                position += length
            } else {
                let byte = base[position]
                tokens[tokenCount] = UInt32(byte)
                literals[Int(byte)] &+= 1
                position += 1
            }
            tokenCount += 1
        }
        return tokenCount
    }

    /// How many bytes from `current` equal those from `earlier`, up to `limit`; the ranges may
    /// overlap, as an LZ77 copy does.
    @inline(__always)
    private static func matchLength(_ current: UnsafePointer<UInt8>, _ earlier: UnsafePointer<UInt8>, limit: Int) -> Int {
        var length = 0
        while length + 8 <= limit {
            let difference =
                UnsafeRawPointer(current + length).loadUnaligned(as: UInt64.self)
                ^ UnsafeRawPointer(earlier + length).loadUnaligned(as: UInt64.self)
            if difference != 0 { return length + UInt64(littleEndian: difference).trailingZeroBitCount / 8 }
            length += 8
        }
        while length < limit, current[length] == earlier[length] { length += 1 }
        return length
    }

    private static func ensureTwoCodes(_ counts: inout [UInt32]) {
        var used = counts.reduce(0) { $0 + ($1 > 0 ? 1 : 0) }
        var symbol = 0
        while used < 2 {
            if counts[symbol] == 0 {
                counts[symbol] = 1
                used += 1
            }
            symbol += 1
        }
    }

    /// The order code-length code lengths are sent in (RFC 1951 section 3.2.7).
    private static let codeLengthOrder = [16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15]

    /// HLIT, HDIST, HCLEN, the code-length code, and both trees' lengths run-length coded with it.
    private func writeTrees(_ literalTree: HuffmanCode, _ distanceTree: HuffmanCode, to writer: inout BitWriter) {
        let literalCount = max(257, (literalTree.lengths.lastIndex { $0 != 0 } ?? 0) + 1)
        let distanceCount = max(1, (distanceTree.lengths.lastIndex { $0 != 0 } ?? 0) + 1)
        let total = literalCount + distanceCount
        var counts = [UInt32](repeating: 0, count: 19)
        // Runs as `symbol | extra << 8`: 16 repeats the previous length 3–6 times, 17 and 18 give
        // 3–10 and 11–138 zeros. On the stack: 316 entries of each at most.
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: total) { lengths in
            withUnsafeTemporaryAllocation(of: UInt16.self, capacity: total) { runs in
                literalTree.lengths.withUnsafeBufferPointer { literal in
                    _ = lengths.initialize(fromContentsOf: literal.prefix(literalCount))
                }
                distanceTree.lengths.withUnsafeBufferPointer { distance in
                    _ = UnsafeMutableBufferPointer(rebasing: lengths[literalCount...]).initialize(fromContentsOf: distance.prefix(distanceCount))
                }
                var runCount = 0
                counts.withUnsafeMutableBufferPointer { counts in
                    func add(_ symbol: Int, _ extra: Int = 0) {
                        runs[runCount] = UInt16(symbol | extra << 8)
                        runCount += 1
                        counts[symbol] += 1
                    }
                    var index = 0
                    while index < total {
                        let current = lengths[index]
                        var run = 1
                        while index + run < total, lengths[index + run] == current { run += 1 }
                        index += run
                        if current == 0 {
                            while run >= 11 {
                                let taken = min(run, 138)
                                add(18, taken - 11)
                                run -= taken
                            }
                            if run >= 3 {
                                add(17, run - 3)
                                run = 0
                            }
                        } else {
                            add(Int(current))
                            run -= 1
                            while run >= 3 {
                                let taken = min(run, 6)
                                add(16, taken - 3)
                                run -= taken
                            }
                        }
                        for _ in 0..<run { add(Int(current)) }
                    }
                }
                let lengthTree = counts.withUnsafeBufferPointer { HuffmanCode(counts: $0, limit: 7, workspace: workspace) }
                let sent = max(4, (Self.codeLengthOrder.lastIndex { lengthTree.lengths[$0] != 0 } ?? 0) + 1)
                writer.put(UInt32(literalCount - 257), 5)
                writer.put(UInt32(distanceCount - 1), 5)
                writer.put(UInt32(sent - 4), 4)
                for symbol in Self.codeLengthOrder[..<sent] { writer.put(UInt32(lengthTree.lengths[symbol]), 3) }
                for run in runs.prefix(runCount) {
                    let symbol = Int(run & 0xFF)
                    writer.put(code: lengthTree.codes[symbol])
                    switch symbol {
                    case 16: writer.put(UInt32(run >> 8), 2)
                    case 17: writer.put(UInt32(run >> 8), 3)
                    case 18: writer.put(UInt32(run >> 8), 7)
                    default: break
                    }
                }
            }
        }
    }

    private static func writeTokens(
        _ tokens: UnsafeMutablePointer<UInt32>, count: Int, _ literalTree: HuffmanCode, _ distanceTree: HuffmanCode,
        to writer: inout BitWriter
    ) {
        let lengthExtraBits = DeflateTables.lengthExtraBits
        let distanceExtraBits = DeflateTables.distanceExtraBits
        literalTree.codes.withUnsafeBufferPointer { literalCodes in
            distanceTree.codes.withUnsafeBufferPointer { distanceCodes in
                var index = 0
                while index < count {
                    let token = tokens[index]
                    index += 1
                    guard DeflateTables.isMatch(token) else {
                        // Up to three literals in a row go out in one put (codes of at most 15 bits):
                        // a photo is nearly all literals.
                        let code = literalCodes[Int(token)]
                        var value = UInt64(code & 0xFFFF)
                        var length = Int(code >> 16)
                        if index < count, !DeflateTables.isMatch(tokens[index]) {
                            let second = literalCodes[Int(tokens[index])]
                            value |= UInt64(second & 0xFFFF) << length
                            length += Int(second >> 16)
                            index += 1
                            if index < count, !DeflateTables.isMatch(tokens[index]) {
                                let third = literalCodes[Int(tokens[index])]
                                value |= UInt64(third & 0xFFFF) << length
                                length += Int(third >> 16)
                                index += 1
                            }
                        }
                        writer.put(wide: value, length)
                        continue
                    }
                    let lengthCode = DeflateTables.lengthCode(of: token)
                    writer.put(code: literalCodes[257 + lengthCode], extra: DeflateTables.lengthExtra(of: token), bits: lengthExtraBits[lengthCode])
                    let distanceCode = DeflateTables.distanceCode(of: token)
                    writer.put(
                        code: distanceCodes[distanceCode], extra: DeflateTables.distanceExtra(of: token), bits: distanceExtraBits[distanceCode])
                }
            }
        }
    }
}

/// Bits packed least significant first, as deflate sends them. Every put stores eight bytes and
/// moves on by the whole bytes filled, without a branch; the buffer has 8 bytes of slack for it.
private struct BitWriter {
    /// Where the next whole byte goes; the bits not yet a whole byte are kept in `bits`.
    private(set) var position: UnsafeMutableRawPointer
    private var bits: UInt64 = 0
    private var count: UInt64 = 0

    init(at position: UnsafeMutableRawPointer) { self.position = position }

    /// Goes on writing at `position`, the buffer having moved or grown (the partial byte is kept).
    mutating func resume(at position: UnsafeMutableRawPointer) { self.position = position }

    /// `length` ≤ 56 bits of `value`, lowest first.
    @inline(__always)
    mutating func put(_ value: UInt32, _ length: Int) { put(wide: UInt64(value), length) }

    /// `length` ≤ 56 bits of `value`, lowest first.
    @inline(__always)
    mutating func put(wide value: UInt64, _ length: Int) {
        bits |= value << count
        count += UInt64(length)
        position.storeBytes(of: bits.littleEndian, as: UInt64.self)
        let whole = count >> 3
        position += Int(whole)
        bits >>= whole << 3
        count &= 7
    }

    /// A Huffman code as `HuffmanCode.codes` holds it: bit-reversed code, and its length above bit 16.
    @inline(__always)
    mutating func put(code: UInt32) { put(code & 0xFFFF, Int(code >> 16)) }

    /// A Huffman code followed by `bits` extra bits of `extra`.
    @inline(__always)
    mutating func put(code: UInt32, extra: UInt32, bits: UInt8) {
        let length = Int(code >> 16)
        put(code & 0xFFFF | extra << length, length + Int(bits))
    }

    /// The last partial byte; the address after it.
    mutating func finish() -> UnsafeMutableRawPointer {
        if count > 0 { put(0, 8 - Int(count)) }
        return position
    }
}

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

/// Deflate's length and distance codes with their extra bits (RFC 1951 section 3.2.5), and the
/// match token that carries them from matching to writing: flag in bit 31, length code (0…28,
/// symbol 257 + code) in bits 26–30, its extra value in bits 21–25, distance code in bits 16–20
/// and its extra value in bits 0–12. Matching looks the codes up once; writing only unpacks them.
enum DeflateTables {
    static let lengthBase: [Int] = [
        3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258,
    ]
    static let distanceBase: [Int] = [
        1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769, 1025, 1537, 2049, 3073, 4097, 6145, 8193, 12289,
        16385, 24577,
    ]

    /// Extra bits of each length code.
    nonisolated(unsafe) static let lengthExtraBits = kept(
        [0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0] as [UInt8])
    /// Extra bits of each distance code.
    nonisolated(unsafe) static let distanceExtraBits = kept(
        [0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13] as [UInt8])

    /// For each match length 0…258 (3 for shorter), the token's length part: flag, code and extra value.
    nonisolated(unsafe) static let lengths = kept(
        (0...258).map { length -> UInt32 in
            let length = max(length, 3)
            let code = lengthBase.lastIndex { $0 <= length } ?? 0
            return 1 << 31 | UInt32(code) << 26 | UInt32(length - lengthBase[code]) << 21
        })

    /// The token's distance part for `distance` (1…32768): code and extra value. Matching uses
    /// three distances a block, so this is worked out once for each, not looked up per match.
    static func distance(_ distance: Int) -> UInt32 {
        var code = 0
        while code + 1 < distanceBase.count, distanceBase[code + 1] <= distance { code += 1 }
        return UInt32(code) << 16 | UInt32(distance - distanceBase[code])
    }

    @inline(__always) static func isMatch(_ token: UInt32) -> Bool { token >> 31 != 0 }
    @inline(__always) static func lengthCode(of token: UInt32) -> Int { Int(token >> 26 & 0x1F) }
    @inline(__always) static func lengthExtra(of token: UInt32) -> UInt32 { token >> 21 & 0x1F }
    @inline(__always) static func distanceCode(of token: UInt32) -> Int { Int(token >> 16 & 0x1F) }
    @inline(__always) static func distanceExtra(of token: UInt32) -> UInt32 { token & 0x1FFF }

    /// `values` in memory never freed: the hot loops read these tables through a plain pointer,
    /// without a closure per table.
    private static func kept<Value>(_ values: [Value]) -> UnsafePointer<Value> {
        let pointer = UnsafeMutablePointer<Value>.allocate(capacity: values.count)
        pointer.initialize(from: values, count: values.count)
        return UnsafePointer(pointer)
    }
}
