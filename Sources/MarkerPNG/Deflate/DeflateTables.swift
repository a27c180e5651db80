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
