import MarkerPNG
import MarkerPixels

/// libFuzzer target: any bytes as a PNG. What the direct path reads (markerpaint's own kind of PNG)
/// must be exactly what libspng reads from the same bytes; anything else is libspng's to read or
/// refuse. No input may trap or read past its bytes (AddressSanitizer watches).
enum PNGTarget: FuzzTarget {
    static let name = "png"

    static func fuzz(_ bytes: [UInt8]) {
        let direct = bytes.withUnsafeBytes { PNGDecoder.direct($0) }
        let libspng = try? PNGDecoder.withLibspng(bytes)
        // `decode` is the direct path, else libspng: both run here already.
        if let direct {
            FuzzHarness.require(direct == libspng, "read directly as \(direct.width) × \(direct.height), which libspng reads otherwise")
        }
    }
}
