#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An IP address, IPv4 held as IPv4-mapped IPv6 (`::ffff:a.b.c.d`) so one range test serves both.
public struct IPAddress: Hashable, Sendable, CustomStringConvertible {
    let high: UInt64
    let low: UInt64

    /// Reads `1.2.3.4` or `2001:db8::1` (inet_pton's forms), nothing else: no port, no brackets.
    public init?(_ text: some StringProtocol) {
        guard !text.isEmpty, text.utf8.count <= 45 else { return nil }
        let string = String(text)
        // Into plain bytes, network order: in_addr and in6_addr are the same 4 and 16 bytes.
        var bytes = [UInt8](repeating: 0, count: 16)
        if inet_pton(AF_INET, string, &bytes) == 1 {
            self.init(ipv4: bytes[0..<4].reduce(0) { $0 << 8 | UInt32($1) })
            return
        }
        guard inet_pton(AF_INET6, string, &bytes) == 1 else { return nil }
        self.init(bytes: bytes)
    }

    public init(ipv4: UInt32) {
        high = 0
        low = 0xFFFF_0000_0000 | UInt64(ipv4)
    }

    /// 16 bytes in network order (more are ignored, fewer read as zeros).
    private init(bytes: [UInt8]) {
        high = bytes.prefix(8).reduce(0) { $0 << 8 | UInt64($1) }
        low = bytes.dropFirst(8).prefix(8).reduce(0) { $0 << 8 | UInt64($1) }
    }

    public var isIPv4: Bool { high == 0 && low >> 32 == 0xFFFF }

    /// The address with all but its first `prefix` bits (of the 128, IPv4 counted from bit 96) cleared.
    public func masked(_ prefix: Int) -> IPAddress {
        func mask(_ bits: Int) -> UInt64 { bits <= 0 ? 0 : bits >= 64 ? .max : ~(UInt64.max >> bits) }
        return IPAddress(high: high & mask(prefix), low: low & mask(prefix - 64))
    }

    private init(high: UInt64, low: UInt64) {
        self.high = high
        self.low = low
    }

    /// Who a limit counts: an IPv4 address itself, an IPv6 address's /64 (one subscriber's network,
    /// whose 2^64 addresses one client may use as it likes).
    public var client: IPAddress { isIPv4 ? self : masked(64) }

    public var description: String {
        if isIPv4 {
            let value = UInt32(truncatingIfNeeded: low)
            return "\(value >> 24).\(value >> 16 & 0xFF).\(value >> 8 & 0xFF).\(value & 0xFF)"
        }
        let groups =
            (0..<4).map { UInt16(truncatingIfNeeded: high >> (48 - 16 * $0)) } + (0..<4).map { UInt16(truncatingIfNeeded: low >> (48 - 16 * $0)) }
        return groups.map { String($0, radix: 16) }.joined(separator: ":")
    }
}

/// A range of addresses, `10.0.0.0/8`, `2001:db8::/32` or a single address.
public struct AddressRange: Sendable, Equatable, CustomStringConvertible {
    public let base: IPAddress
    /// Bits of the 128 that must match.
    public let prefix: Int
    public let description: String

    /// Reads `address` or `address/bits` (0-32 for IPv4, 0-128 for IPv6).
    public init?(_ text: some StringProtocol) {
        let parts = text.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false)
        guard let address = parts.first.flatMap({ IPAddress($0) }) else { return nil }
        let width = address.isIPv4 ? 32 : 128
        var bits = width
        if parts.count == 2 {
            guard parts[1].utf8.count <= 3, parts[1].utf8.allSatisfy({ (0x30...0x39).contains($0) }), let value = Int(parts[1]), value <= width
            else { return nil }
            bits = value
        }
        prefix = bits + (128 - width)
        base = address.masked(prefix)
        description = String(text)
    }

    public func contains(_ address: IPAddress) -> Bool { address.masked(prefix) == base }
}

/// Who sent a request: the peer, or behind proxies the operator trusts, the address they name.
public enum ClientAddress {
    /// The client of a request from `peer` carrying `forwardedFor` (each `X-Forwarded-For` field's
    /// value, in order): the peer itself, unless it is one of `trusted`; then, from the right of
    /// the forwarded list (the hop nearest the service first), the first address that is not
    /// trusted. Entries left of it are the client's own to write, and are never believed. An entry
    /// that is no address ends the walk at the hop that forwarded it.
    public static func client(peer: IPAddress?, forwardedFor: [String], trusted: [AddressRange]) -> IPAddress? {
        guard var current = peer, !trusted.isEmpty else { return peer }
        let hops = forwardedFor.flatMap { $0.split(separator: ",") }
        for hop in hops.reversed() {
            guard trusted.contains(where: { $0.contains(current) }) else { break }
            let trimmed = hop.drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed()
            guard let address = IPAddress(String(trimmed)) else { break }
            current = address
        }
        return current
    }
}
