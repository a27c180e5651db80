import MarkerPNG
import MarkerPixels
import Testing

/// The encoder and decoder on pixels made here, without a renderer: every filter and compression
/// gives back exactly the image, grey pictures as grey+alpha, and bad settings and bytes are refused.
@Suite("PNG codec")
struct PNGCodecTests {
    /// A picture of `size` with every alpha and, unless `grey`, unequal channels.
    static func picture(width: Int, height: Int, grey: Bool) -> RGBAImage {
        var image = RGBAImage(width: width, height: height)
        for y in 0..<height {
            for x in 0..<width {
                let value = UInt8((x * 7 + y * 13) & 0xFF)
                let alpha = UInt8((x * 3 + y * 5) & 0xFF)
                image[x, y] = grey ? RGBA(r: value, g: value, b: value, a: alpha) : RGBA(r: value, g: value &+ 40, b: 255 - value, a: alpha)
            }
        }
        return image
    }

    @Test(
        "every filter and compression round-trips exactly, grey as grey+alpha and colour as RGBA",
        arguments: PNGEncoder.Filter.allCases, [PNGEncoder.Compression.fast, .libdeflate(level: 1), .libdeflate(level: 12)])
    func roundTrip(filter: PNGEncoder.Filter, compression: PNGEncoder.Compression) throws {
        let encoder = try PNGEncoder(compression: compression, filter: filter)
        for (grey, width, height) in [(true, 37, 11), (false, 37, 11), (true, 1, 1), (false, 300, 2)] {
            let image = Self.picture(width: width, height: height, grey: grey)
            let png = try encoder.encode(image)
            #expect(png[25] == (grey ? 4 : 6))
            #expect(try PNGDecoder.decode(png) == image)
        }
    }

    @Test("libdeflate levels outside 1...12 are refused", arguments: [0, 13, -1])
    func badLevel(level: Int) {
        #expect(throws: PNGError.self) { try PNGEncoder(compression: .libdeflate(level: level)) }
    }

    @Test("bytes that are not a whole PNG are refused with a message, not a crash", arguments: [[], [0x89, 0x50, 0x4E, 0x47], Array(repeating: 0, count: 64)])
    func notPNG(bytes: [UInt8]) throws {
        #expect(throws: PNGError.self) { try PNGDecoder.decode(bytes) }
        let whole = try PNGEncoder().encode(Self.picture(width: 20, height: 20, grey: false))
        #expect(throws: PNGError.self) { try PNGDecoder.decode(Array(whole.prefix(whole.count / 2))) }
    }
}
