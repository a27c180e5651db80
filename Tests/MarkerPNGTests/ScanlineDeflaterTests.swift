import TestSupport
import Testing

@testable import MarkerPNG

/// markerpaint's own deflater: every stream must inflate, in libdeflate's strict decoder, to
/// exactly its input (zlib's, through libspng, reads every PNG in `PNGEncoderTests`).
@Suite("Scanline deflater")
struct ScanlineDeflaterTests {
    /// A named input: its bytes, row length (filter byte included) and pixel size.
    struct Input: CustomTestStringConvertible, Sendable {
        let name: String
        let bytes: [UInt8]
        let rowBytes: Int
        let pixelBytes: Int
        var testDescription: String { "\(name) (\(bytes.count) bytes)" }
    }

    static let inputs: [Input] = {
        var random = SeededGenerator(seed: 7)
        let noise = (0..<65_536).map { _ in UInt8.random(in: 0...255, using: &random) }
        // One row of noise repeated: every row after the first is a match of the row above.
        let row = (0..<401).map { _ in UInt8.random(in: 0...255, using: &random) }
        // Rows wider than deflate's 32 KiB window: the row above is out of reach.
        let wide = (0..<40_001).map { _ in UInt8.random(in: 0...3, using: &random) }
        // Over 256 KiB: several blocks, each with codes of its own, matches reaching back across
        // their starts, and the output buffer grown between them.
        let large = (0..<700_001).map { index in index % 1_001 < 600 ? UInt8(index / 7_000 % 5) : UInt8.random(in: 0...255, using: &random) }
        return [
            Input(name: "empty", bytes: [], rowBytes: 1, pixelBytes: 1),
            Input(name: "one byte", bytes: [42], rowBytes: 1, pixelBytes: 1),
            Input(name: "zeros", bytes: [UInt8](repeating: 0, count: 100_000), rowBytes: 201, pixelBytes: 2),
            Input(name: "noise", bytes: noise, rowBytes: 257, pixelBytes: 4),
            Input(name: "repeated noisy row", bytes: Array(repeatElement(row, count: 60).joined()), rowBytes: 401, pixelBytes: 2),
            Input(name: "rows wider than the window", bytes: wide + wide + wide, rowBytes: 40_001, pixelBytes: 4),
            Input(name: "three blocks", bytes: large, rowBytes: 1_001, pixelBytes: 4),
            Input(
                name: "three-byte pixels", bytes: Array(repeatElement([9, 200, 31] as [UInt8], count: 5_000).joined()), rowBytes: 301, pixelBytes: 3),
            Input(name: "matches 258 long and one more", bytes: [7] + [UInt8](repeating: 1, count: 259) + [7, 7, 7], rowBytes: 11, pixelBytes: 1),
        ]
    }()

    @Test("every stream inflates to exactly its input", arguments: inputs)
    func roundTrip(_ input: Input) throws {
        var deflater = ScanlineDeflater()
        let inflated = try input.bytes.withUnsafeBytes { bytes in
            try ZlibInflater().inflate(deflater.compress(bytes, rowBytes: input.rowBytes, pixelBytes: input.pixelBytes), count: bytes.count)
        }
        #expect(inflated == input.bytes)
    }

    @Test("noise costs at most 1% more than its size, and repeats compress")
    func sizes() throws {
        var deflater = ScanlineDeflater()
        for input in Self.inputs {
            let size = input.bytes.withUnsafeBytes { deflater.compress($0, rowBytes: input.rowBytes, pixelBytes: input.pixelBytes).count }
            switch input.name {
            case "noise": #expect(size <= input.bytes.count + input.bytes.count / 100 + 600, "\(size)")
            case "zeros", "repeated noisy row", "three-byte pixels": #expect(size < input.bytes.count / 10, "\(input.name): \(size)")
            default: break
            }
        }
    }

    @Test("one deflater over many random images, of runs, copied rows and noise, in every pixel size: each inflates to its input")
    func randomImages() throws {
        var random = SeededGenerator(seed: 2026)
        var deflater = ScanlineDeflater()
        for _ in 0..<300 {
            let pixelBytes = Int.random(in: 1...4, using: &random)
            let rowBytes = pixelBytes * Int.random(in: 1...300, using: &random) + 1
            let rows = Int.random(in: 0...60, using: &random)
            var bytes: [UInt8] = []
            for rowIndex in 0..<rows {
                let start = bytes.count
                switch Int.random(in: 0...3, using: &random) {
                case 0 where rowIndex > 0: bytes += bytes[(start - rowBytes)..<start]
                case 1: bytes += [UInt8](repeating: UInt8.random(in: 0...255, using: &random), count: rowBytes)
                case 2: bytes += (0..<rowBytes).map { _ in UInt8.random(in: 0...255, using: &random) }
                default: bytes += (0..<rowBytes).map { $0 % 17 < 9 ? 0 : UInt8.random(in: 0...2, using: &random) }
                }
            }
            let inflated = try bytes.withUnsafeBytes { input in
                try ZlibInflater().inflate(deflater.compress(input, rowBytes: rowBytes, pixelBytes: pixelBytes), count: input.count)
            }
            #expect(inflated == bytes, "\(rows) rows of \(rowBytes) bytes, pixels of \(pixelBytes)")
        }
    }

    /// An alphabet's counts and the longest code allowed: 15 for literals and distances, 7 for
    /// the code-length alphabet's 19 symbols.
    struct Counts: CustomTestStringConvertible, Sendable {
        let name: String
        let counts: [UInt32]
        let limit: Int
        var testDescription: String { "\(name), at most \(limit) bits" }
    }

    static let fibonacci = (0..<30).reduce(into: [UInt32]()) { counts, index in counts.append(index < 2 ? 1 : counts[index - 1] + counts[index - 2]) }

    @Test(
        "Huffman lengths stay within the limit and make a complete code, even where Huffman's own would be 29 deep",
        arguments: [
            Counts(name: "Fibonacci counts", counts: fibonacci, limit: 15),
            Counts(name: "Fibonacci counts", counts: Array(fibonacci.prefix(19)), limit: 7),
            Counts(name: "all equal", counts: [UInt32](repeating: 5, count: 286), limit: 15),
            Counts(name: "two symbols", counts: [0, 9, 0, 1], limit: 7),
            Counts(name: "one in a thousand", counts: (0..<286).map { UInt32($0 == 3 ? 1_000_000 : 1) }, limit: 15),
        ])
    func completeCodes(_ example: Counts) {
        let lengths = HuffmanCode.lengths(counts: example.counts, limit: example.limit)
        #expect(lengths.allSatisfy { $0 <= example.limit })
        #expect(zip(example.counts, lengths).allSatisfy { ($0 > 0) == ($1 > 0) }, "every used symbol, and only those, has a code")
        // Kraft's sum is exactly 1: no code is a prefix of another and none is wasted.
        #expect(lengths.filter { $0 > 0 }.reduce(0) { $0 + (1 << (example.limit - Int($1))) } == 1 << example.limit)
    }
}
