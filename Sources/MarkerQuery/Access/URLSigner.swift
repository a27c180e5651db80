import Crypto

/// Signs the URLs the service hands out for work beyond one marker, and checks them (imgproxy's
/// model): `/v1/sprites/<signature>/<name>…`, where the signature is an HMAC-SHA256 of what the
/// URL names, under a key only the operator's instances hold. A URL whose signature does not
/// verify is refused before anything is drawn, so a client can make the service draw only what
/// some instance handed out.
///
/// Keys rotate: the first key signs, every key verifies, so an operator adds the new key second,
/// then moves it first once every instance has it, then drops the old one.
public struct URLSigner: Sendable {
    /// What a signature covers besides the name: which endpoint it opens, so one for an icon
    /// opens no sprite sheet of the same name.
    public enum Kind: String, Sendable, CaseIterable {
        case images, icons, sprites
        /// A route's pins and callouts: the name signed is the file and the query that draws it.
        case pictures
    }

    /// 16 bytes of the HMAC: 128 bits, 22 characters of base64url.
    public static let signatureBytes = 16
    public static let signatureLength = 22
    /// Keys shorter than this are refused: 256 bits, SHA-256's own strength.
    public static let minimumKeyBytes = 32
    /// A key file larger than this is not one (a key is a few dozen characters a line).
    public static let maximumFileBytes = 64 << 10
    /// The most keys a file may hold: a forged URL is checked against each, and rotating needs two.
    public static let maximumKeys = 16

    /// The keys' bytes (swift-crypto's `SymmetricKey` is not `Sendable`; one is made per use).
    private let keys: [[UInt8]]

    public init(keys: [[UInt8]]) {
        self.keys = keys
    }

    /// The signature of `name` for `kind`'s endpoint under the first key, in base64url.
    public func signature(_ kind: Kind, _ name: some StringProtocol) -> String {
        Base64URL.encode(Self.mac(kind, name, key: keys[0]))
    }

    /// `/<kind>/<signature>/<file>` under `/v1`, the signature covering `name` (the file name, or
    /// for icons and sprites the id or sheet name that the ratio and extension follow).
    public func path(_ kind: Kind, name: some StringProtocol, file: some StringProtocol) -> String {
        "/v1/\(kind.rawValue)/\(signature(kind, name))/\(file)"
    }

    /// Whether `signature` is the signature of `name` under any of the keys. Every key is tried and
    /// every byte compared, whatever matches, so the time taken says nothing of a near miss.
    public func verifies(_ signature: some StringProtocol, _ kind: Kind, _ name: some StringProtocol) -> Bool {
        guard signature.utf8.count == Self.signatureLength, let given = Base64URL.decode(signature), given.count == Self.signatureBytes else {
            return false
        }
        var matched = false
        for key in keys {
            let expected = Self.mac(kind, name, key: key)
            var difference: UInt8 = 0
            for index in 0..<Self.signatureBytes { difference |= expected[index] ^ given[index] }
            matched = matched || difference == 0
        }
        return matched
    }

    private static func mac(_ kind: Kind, _ name: some StringProtocol, key: [UInt8]) -> [UInt8] {
        var message = Array(kind.rawValue.utf8)
        message.append(0x0A)
        message += name.utf8
        return Array(HMAC<SHA256>.authenticationCode(for: message, using: SymmetricKey(data: key)).prefix(signatureBytes))
    }
}

extension URLSigner {
    /// Why a key file's contents hold no usable keys: one line naming the line at fault, never a key.
    public struct KeyFileError: Error, Sendable, Equatable, CustomStringConvertible {
        public let message: String
        public var description: String { message }
    }

    /// The keys of a key file's bytes: one a line, hex or base64url (padded or not), at least 32
    /// bytes each; blank lines and lines starting with `#` are skipped. The first signs.
    public init(keyFile bytes: [UInt8]) throws(KeyFileError) {
        var keys: [[UInt8]] = []
        for (index, line) in bytes.split(separator: 0x0A, omittingEmptySubsequences: false).enumerated() {
            let text = line.drop { $0 == 0x20 || $0 == 0x09 }.reversed().drop { $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }.reversed()
            guard let first = text.first, first != UInt8(ascii: "#") else { continue }
            guard let key = Self.key(Array(text)) else {
                throw KeyFileError(message: "line \(index + 1) is not a key in hex or base64url")
            }
            guard key.count >= Self.minimumKeyBytes else {
                throw KeyFileError(
                    message: "the key on line \(index + 1) is \(key.count) bytes; keys must be at least \(Self.minimumKeyBytes) random bytes")
            }
            keys.append(key)
            guard keys.count <= Self.maximumKeys else {
                throw KeyFileError(
                    message: "holds more than \(Self.maximumKeys) keys (line \(index + 1)); keep the one that signs and those still to verify")
            }
        }
        guard !keys.isEmpty else {
            throw KeyFileError(message: "holds no key (one a line, hex or base64url, at least \(Self.minimumKeyBytes) random bytes each)")
        }
        self.init(keys: keys)
    }

    /// A key written in hex (an even number of hex digits), or else in base64url.
    private static func key(_ text: [UInt8]) -> [UInt8]? {
        func hexValue(_ byte: UInt8) -> UInt8? {
            switch byte {
            case 0x30...0x39: byte - 0x30
            case 0x61...0x66: byte - 0x61 + 10
            case 0x41...0x46: byte - 0x41 + 10
            default: nil
            }
        }
        if text.count.isMultiple(of: 2), text.allSatisfy({ hexValue($0) != nil }) {
            return stride(from: 0, to: text.count, by: 2).compactMap { index in
                guard let high = hexValue(text[index]), let low = hexValue(text[index + 1]) else { return nil }
                return high << 4 | low
            }
        }
        var unpadded = text[...]
        while unpadded.last == UInt8(ascii: "=") { unpadded = unpadded.dropLast() }
        return Base64URL.decode(String(decoding: unpadded, as: UTF8.self))
    }
}

/// Base64url without padding (RFC 4648 §5), as signatures are spelled in URLs.
public enum Base64URL {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)

    public static func encode(_ bytes: [UInt8]) -> String {
        var out: [UInt8] = []
        out.reserveCapacity((bytes.count * 4 + 2) / 3)
        var index = 0
        while index < bytes.count {
            let chunk = Array(bytes[index..<min(index + 3, bytes.count)])
            let value = chunk.enumerated().reduce(0) { $0 | Int($1.element) << (16 - 8 * $1.offset) }
            for position in 0..<(chunk.count + 1) { out.append(alphabet[(value >> (18 - 6 * position)) & 0x3F]) }
            index += 3
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// The bytes `text` spells, or nil unless it is canonical base64url without padding (no
    /// characters outside the alphabet, no leftover bits set).
    public static func decode(_ text: some StringProtocol) -> [UInt8]? {
        var bytes: [UInt8] = []
        var value = 0
        var bits = 0
        for character in text.utf8 {
            let digit: Int
            switch character {
            case 0x41...0x5A: digit = Int(character) - 0x41
            case 0x61...0x7A: digit = Int(character) - 0x61 + 26
            case 0x30...0x39: digit = Int(character) - 0x30 + 52
            case UInt8(ascii: "-"): digit = 62
            case UInt8(ascii: "_"): digit = 63
            default: return nil
            }
            value = value << 6 | digit
            bits += 6
            if bits >= 8 {
                bits -= 8
                bytes.append(UInt8((value >> bits) & 0xFF))
                value &= (1 << bits) - 1
            }
        }
        // A single leftover character (6 bits) spells no byte; leftover bits must be zero.
        guard bits < 6, value == 0 else { return nil }
        return bytes
    }
}
