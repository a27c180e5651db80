import CPNG

/// A zlib stream for PNG scanlines that looks for repeats only where a marker has them: in the
/// pixel before, the byte before and the row above.
///
/// libdeflate at level 1 hashes every position and searches its whole window, and spends most
/// of a marker's encoding time doing so (~36 µs of ~45 @2x). A marker's repeats are nearly all
/// transparent runs, flat pill and shadow rows, and rows equal to the one above; matching only
/// those three distances finds them in a few loads per byte. One dynamic Huffman block follows
/// (RFC 1951) per 256 KiB, with codes built from its own counts. Measured (`markerpaint-bench
/// deflate`, real markers' scanlines): 16.1 µs @2x against libdeflate level 1's 29.6, 9.3 against
/// 10.9 @1x, for 1.13× and 1.04× its bytes. Any zlib reader reads the stream, and the same input
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
        /// One step anywhere: the longest match at the three distances in reach, else a literal.
        func step() {
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
        // Before every distance is in reach, one step at a time.
        while position < min(everyDistance, count) { step() }
        // Then, while eight bytes can be read ahead: most bytes start no match, and are told apart
        // by one load and three compares (a match needs its first three bytes equal); the others
        // take a step.
        let firstThree: UInt64 = 0xFF_FFFF
        guard let literalCounts = literals.baseAddress else { return tokenCount }
        while position &+ 8 <= count {
            let here = UInt64(littleEndian: UnsafeRawPointer(base + position).loadUnaligned(as: UInt64.self))
            let before = UInt64(littleEndian: UnsafeRawPointer(base + (position &- 1)).loadUnaligned(as: UInt64.self))
            let pixelBefore = UInt64(littleEndian: UnsafeRawPointer(base + (position &- left)).loadUnaligned(as: UInt64.self))
            let above = UInt64(littleEndian: UnsafeRawPointer(base + (position &- up)).loadUnaligned(as: UInt64.self))
            if (here ^ before) & firstThree != 0, (here ^ pixelBefore) & firstThree != 0, (here ^ above) & firstThree != 0 {
                let byte = Int(truncatingIfNeeded: here & 0xFF)
                tokens[tokenCount] = UInt32(truncatingIfNeeded: byte)
                literalCounts[byte] &+= 1
                position &+= 1
                tokenCount &+= 1
                continue
            }
            step()
        }
        // The last few bytes, one step at a time.
        while position < count { step() }
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
                    index &+= 1
                    guard DeflateTables.isMatch(token) else {
                        // Up to three literals in a row go out in one put (codes of at most 15 bits):
                        // a photo is nearly all literals.
                        let code = literalCodes[Int(truncatingIfNeeded: token)]
                        var value = UInt64(code & 0xFFFF)
                        var length = Int(truncatingIfNeeded: code &>> 16)
                        if index < count, !DeflateTables.isMatch(tokens[index]) {
                            let second = literalCodes[Int(truncatingIfNeeded: tokens[index])]
                            value |= UInt64(second & 0xFFFF) &<< length
                            length &+= Int(truncatingIfNeeded: second &>> 16)
                            index &+= 1
                            if index < count, !DeflateTables.isMatch(tokens[index]) {
                                let third = literalCodes[Int(truncatingIfNeeded: tokens[index])]
                                value |= UInt64(third & 0xFFFF) &<< length
                                length &+= Int(truncatingIfNeeded: third &>> 16)
                                index &+= 1
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
