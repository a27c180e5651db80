/// Bits packed least significant first, as deflate sends them. Every put stores eight bytes and
/// moves on by the whole bytes filled, without a branch; the buffer has 8 bytes of slack for it.
struct BitWriter {
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
        bits |= value &<< count
        count &+= UInt64(truncatingIfNeeded: length)
        position.storeBytes(of: bits.littleEndian, as: UInt64.self)
        let whole = count &>> 3
        position += Int(truncatingIfNeeded: whole)
        bits = bits &>> (whole &<< 3)
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
