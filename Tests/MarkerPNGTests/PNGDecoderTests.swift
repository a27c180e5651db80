import Foundation
import MarkerPNG
import MarkerPixels
import Testing

/// The direct path reads markerpaint's own PNGs exactly as libspng does, and leaves everything
/// else, valid or not, to libspng.
@Suite("PNG decoding, direct and through libspng")
struct PNGDecoderTests {
    static let goldens = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Goldens")

    static func goldenFiles() -> [URL] {
        let files = FileManager.default.enumerator(at: goldens, includingPropertiesForKeys: nil)?.compactMap { $0 as? URL } ?? []
        return files.filter { $0.pathExtension == "png" }.sorted { $0.path < $1.path }
    }

    @Test("every golden PNG markerpaint drew (markers, pins, callouts at every scale and theme) reads directly, as libspng reads it")
    func goldensReadDirectly() throws {
        var direct = 0
        for file in Self.goldenFiles() {
            let bytes = Array(try Data(contentsOf: file))
            let image = bytes.withUnsafeBytes { PNGDecoder.direct($0) }
            // markerpaint writes 8-bit grey-and-alpha or RGBA; the previews are a browser's RGB
            // screenshots, and the contact sheet (10,662 × 31,068) is over the limit either way.
            let side = [16, 20].map { at in bytes[at..<at + 4].reduce(0) { $0 << 8 | Int($1) } }.max() ?? 0
            guard bytes[24] == 8, bytes[25] == 4 || bytes[25] == 6, side <= PNGDecoder.maximumSide else {
                #expect(image == nil, "\(file.lastPathComponent)")
                #expect((try? PNGDecoder.decode(bytes)) == (try? PNGDecoder.withLibspng(bytes)), "\(file.lastPathComponent)")
                continue
            }
            #expect(image != nil, "\(file.lastPathComponent) not read directly")
            #expect(image == (try PNGDecoder.withLibspng(bytes)), "\(file.lastPathComponent)")
            direct += 1
        }
        #expect(direct > 200)
    }

    @Test("every row filter, grey and colour: the direct path gives the image back, as libspng does", arguments: PNGEncoder.Filter.allCases)
    func filters(filter: PNGEncoder.Filter) throws {
        let encoder = try PNGEncoder(filter: filter)
        for (grey, width, height) in [(true, 37, 11), (false, 37, 11), (false, 1, 1), (true, 300, 3)] {
            let image = PNGCodecTests.picture(width: width, height: height, grey: grey)
            let png = try encoder.encode(image)
            let direct = png.withUnsafeBytes { PNGDecoder.direct($0) }
            #expect(direct == image)
            #expect(try PNGDecoder.withLibspng(png) == image)
        }
    }

    /// A PNG of `rows` (each with its filter byte) in a stored zlib stream, with `extra` chunks
    /// before the end; `header` is IHDR's last five bytes (depth, colour type, compression,
    /// filter, interlace).
    static func png(width: Int, height: Int, header: [UInt8], rows: [UInt8], splitWith extra: (type: String, data: [UInt8])? = nil) -> [UInt8] {
        func be32(_ value: Int) -> [UInt8] { [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: value >> $0) } }
        func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
            let body = Array(type.utf8) + data
            return be32(data.count) + body + be32(Int(crc32(body)))
        }
        var adler = (a: 1, b: 0)
        for byte in rows { adler.a = (adler.a + Int(byte)) % 65521; adler.b = (adler.b + adler.a) % 65521 }
        let stream = [0x78, 0x01, 0x01] + [UInt8(rows.count & 0xFF), UInt8(rows.count >> 8), UInt8(~rows.count & 0xFF), UInt8((~rows.count >> 8) & 0xFF)]
            + rows + be32(adler.b << 16 | adler.a)
        let half = stream.count / 2
        var bytes: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + chunk("IHDR", be32(width) + be32(height) + header)
        if let extra {
            bytes += chunk("IDAT", Array(stream[..<half])) + chunk(extra.type, extra.data) + chunk("IDAT", Array(stream[half...]))
        } else {
            bytes += chunk("IDAT", stream)
        }
        return bytes + chunk("IEND", [])
    }

    static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 != 0 ? 0xEDB8_8320 ^ (crc >> 1) : crc >> 1 }
        }
        return ~crc
    }

    struct Case: Sendable, CustomTestStringConvertible {
        var testDescription: String
        var bytes: [UInt8]
    }

    static let twoByTwoRGBA: [UInt8] = [0, 1, 2, 3, 4, 5, 6, 7, 8, 0, 9, 10, 11, 12, 13, 14, 15, 16]
    static let others: [Case] = [
        Case(testDescription: "RGB without alpha", bytes: png(width: 2, height: 1, header: [8, 2, 0, 0, 0], rows: [0, 1, 2, 3, 4, 5, 6])),
        Case(testDescription: "16-bit grey", bytes: png(width: 1, height: 1, header: [16, 0, 0, 0, 0], rows: [0, 1, 2])),
        Case(testDescription: "interlaced", bytes: png(width: 1, height: 1, header: [8, 6, 0, 0, 1], rows: [0, 1, 2, 3, 4])),
        Case(
            testDescription: "a text chunk between the IDATs",
            bytes: png(width: 2, height: 2, header: [8, 6, 0, 0, 0], rows: twoByTwoRGBA, splitWith: ("tEXt", Array("a\0b".utf8)))),
        Case(
            testDescription: "an unknown critical chunk between the IDATs",
            bytes: png(width: 2, height: 2, header: [8, 6, 0, 0, 0], rows: twoByTwoRGBA, splitWith: ("QQQQ", [1]))),
        Case(testDescription: "filter type 5", bytes: png(width: 1, height: 1, header: [8, 6, 0, 0, 0], rows: [5, 1, 2, 3, 4])),
        Case(testDescription: "rows too short for the header", bytes: png(width: 2, height: 2, header: [8, 6, 0, 0, 0], rows: [0, 1, 2, 3])),
        Case(testDescription: "40,000 pixels wide", bytes: png(width: 40_000, height: 1, header: [8, 6, 0, 0, 0], rows: [0, 1, 2, 3, 4])),
    ]

    @Test("anything else goes to libspng, whose image or refusal stands", arguments: others)
    func othersGoToLibspng(case png: Case) {
        #expect(png.bytes.withUnsafeBytes { PNGDecoder.direct($0) } == nil)
        func outcome(_ decode: () throws -> RGBAImage) -> String {
            do { return "\(try decode().pixels)" } catch { return "\(error)" }
        }
        #expect(outcome { try PNGDecoder.decode(png.bytes) } == outcome { try PNGDecoder.withLibspng(png.bytes) })
    }

    @Test("the plain 2 × 2 stored-stream PNG of those cases reads directly, so each case's one change is what sends it away")
    func plainReadsDirectly() throws {
        let bytes = Self.png(width: 2, height: 2, header: [8, 6, 0, 0, 0], rows: Self.twoByTwoRGBA)
        let image = try #require(bytes.withUnsafeBytes { PNGDecoder.direct($0) })
        #expect(image.pixels == [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16])
        #expect(image == (try PNGDecoder.withLibspng(bytes)))
    }

    @Test("a PNG of markerpaint's broken anywhere (each byte in turn flipped, or cut short) is never read directly wrong")
    func brokenBytes() throws {
        let png = try PNGEncoder().encode(PNGCodecTests.picture(width: 9, height: 5, grey: false))
        let image = try PNGDecoder.decode(png)
        for index in 8..<png.count {
            var broken = png
            broken[index] ^= 0x10
            // A flipped bit fails a CRC, or (in a CRC itself) its chunk's check.
            #expect(broken.withUnsafeBytes { PNGDecoder.direct($0) } == nil, "byte \(index)")
        }
        for count in [0, 7, 8, 20, 33, png.count / 2, png.count - 12, png.count - 1] {
            #expect(Array(png.prefix(count)).withUnsafeBytes { PNGDecoder.direct($0) } == nil, "\(count) bytes")
        }
        #expect(png.withUnsafeBytes { PNGDecoder.direct($0) } == image)
    }
}
