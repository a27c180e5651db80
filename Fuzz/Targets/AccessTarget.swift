import MarkerQuery

/// libFuzzer target: what decides who a request is and what it may open. The bytes are split at
/// newlines into a peer address, trusted proxy ranges (comma-separated), an `X-Forwarded-For` value,
/// a signature and a name, and the rest read as a signing key file.
enum AccessTarget: FuzzTarget {
    static let name = "access"

    /// One fixed key, to check signatures against whatever the input holds.
    static let signer = URLSigner(keys: [Array(repeating: 0x5A, count: 32)])

    static func fuzz(_ bytes: [UInt8]) {
        let lines = bytes.split(separator: 0x0A, maxSplits: 5, omittingEmptySubsequences: false).map { String(decoding: $0, as: UTF8.self) }
        func line(_ index: Int) -> String { index < lines.count ? lines[index] : "" }

        let peer = IPAddress(line(0))
        if let peer {
            // An address reads back as itself, and its client is one of its own /64 (or itself).
            FuzzHarness.require(IPAddress(peer.description) == peer, "\(line(0)) reads back as \(peer.description)")
            FuzzHarness.require(peer.client == peer.client.client, "\(peer)'s client is not its own client")
        }
        let ranges = line(1).split(separator: ",").compactMap { AddressRange($0) }
        for range in ranges {
            FuzzHarness.require(range.contains(range.base), "\(range) does not contain its own base")
        }
        let forwarded = [line(2)]
        let client = ClientAddress.client(peer: peer, forwardedFor: forwarded, trusted: ranges)
        if let peer, !ranges.contains(where: { $0.contains(peer) }) {
            FuzzHarness.require(client == peer, "an untrusted peer's X-Forwarded-For was believed")
        }
        if let client, client != peer {
            let hops = line(2).split(separator: ",").compactMap { hop in
                IPAddress(String(hop.drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed()))
            }
            FuzzHarness.require(hops.contains(client), "the client \(client) is neither the peer nor a forwarded hop")
        }

        // Base64url reads only its canonical spelling; signatures verify only for what they signed.
        let signature = line(3)
        if let decoded = Base64URL.decode(signature) {
            FuzzHarness.require(Base64URL.encode(decoded) == signature, "\(signature) is not canonical but read")
        }
        let name = line(4)
        for kind in URLSigner.Kind.allCases {
            let genuine = signer.signature(kind, name)
            FuzzHarness.require(signer.verifies(genuine, kind, name), "a genuine signature does not verify")
            if signature != genuine {
                FuzzHarness.require(!signer.verifies(signature, kind, name), "\(signature) verifies for \(name)")
            }
        }

        // Any bytes as a key file: keys of at least 32 bytes that sign and verify, or one refusal.
        if let keyFile = try? URLSigner(keyFile: Array(bytes.split(separator: 0x0A, maxSplits: 5, omittingEmptySubsequences: false).last ?? [])) {
            let signature = keyFile.signature(.sprites, name)
            FuzzHarness.require(keyFile.verifies(signature, .sprites, name), "a key file's signature does not verify")
        }
    }
}
