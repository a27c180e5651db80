import MarkerQuery
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import TestSupport
import Testing

@testable import MarkerService

/// Who a request counts against, and how much expensive work each client may ask for.
@Suite("Per-client limits")
struct ClientLimitTests {
    static func address(_ text: String) throws -> IPAddress { try #require(IPAddress(text)) }

    @Test(
        "the client is the peer, or behind trusted proxies the first untrusted address from the right of X-Forwarded-For",
        arguments: [
            // peer, X-Forwarded-For fields, client
            ("203.0.113.9", ["198.51.100.1"], "203.0.113.9"),  // an untrusted peer's header is its own to write
            ("127.0.0.1", [], "127.0.0.1"),
            ("127.0.0.1", ["198.51.100.1"], "198.51.100.1"),
            ("127.0.0.1", ["1.1.1.1, 198.51.100.1"], "198.51.100.1"),  // the left entry is the client's own claim
            ("127.0.0.1", ["198.51.100.1, 10.0.0.7"], "198.51.100.1"),  // through two trusted proxies
            ("127.0.0.1", ["1.1.1.1", "198.51.100.1, 10.1.2.3"], "198.51.100.1"),  // several fields read as one list
            ("127.0.0.1", ["10.0.0.5, 10.0.0.7"], "10.0.0.5"),  // all trusted: the farthest
            ("127.0.0.1", ["garbage, 198.51.100.1"], "198.51.100.1"),
            ("127.0.0.1", ["198.51.100.1, not-an-address"], "127.0.0.1"),  // a broken hop ends the walk where it was forwarded
            ("127.0.0.1", ["2001:db8::1"], "2001:db8::1"),
        ])
    func clientAddress(peer: String, forwardedFor: [String], client: String) throws {
        let trusted = try ["127.0.0.1", "10.0.0.0/8"].map { try #require(AddressRange($0)) }
        #expect(ClientAddress.client(peer: try Self.address(peer), forwardedFor: forwardedFor, trusted: trusted) == (try Self.address(client)))
    }

    @Test("ranges: IPv4 and IPv6 prefixes, IPv4-mapped addresses, and what does not parse")
    func ranges() throws {
        let ten = try #require(AddressRange("10.0.0.0/8"))
        #expect(ten.contains(try Self.address("10.255.1.2")))
        #expect(!ten.contains(try Self.address("11.0.0.1")))
        #expect(ten.contains(try Self.address("::ffff:10.1.2.3")))
        let documentation = try #require(AddressRange("2001:db8::/32"))
        #expect(documentation.contains(try Self.address("2001:db8:ffff::1")))
        #expect(!documentation.contains(try Self.address("2001:db9::1")))
        #expect(AddressRange("0.0.0.0/0")?.contains(try Self.address("8.8.8.8")) == true)
        for bad in ["", "10.0.0.0/33", "2001:db8::/129", "10.0.0/8", "example.com", "10.0.0.1/", "10.0.0.1/-1", "[::1]", "1.2.3.4:80"] {
            #expect(AddressRange(bad) == nil, "\(bad)")
        }
        // One subscriber's IPv6 network is one client, whatever address in it sends.
        #expect(try Self.address("2001:db8:1:2:aaaa::1").client == (try Self.address("2001:db8:1:2:bbbb::9")).client)
        #expect(try Self.address("2001:db8:1:3::1").client != (try Self.address("2001:db8:1:2::1")).client)
        #expect(try Self.address("192.0.2.1").description == "192.0.2.1")
    }

    @Test("an allowance of images: one request may run it into debt, then 429 with Retry-After until it is paid back; so many at once")
    func allowance() async throws {
        // One image a second: a loaded machine taking a minute over this test still finds the debts unpaid.
        let limiter = ClientLimiter(policy: ClientLimiter.Policy(rate: 1, burst: 300, concurrency: 2))
        let greedy = try Self.address("192.0.2.1")
        let other = try Self.address("192.0.2.2")
        // A quiet client's large request goes through, however large, and leaves it 700 images in debt.
        try await limiter.expensive(greedy, images: 1000) { _ in }
        do {
            try await limiter.expensive(greedy) { _ in }
            Issue.record("a client in debt was let through")
        } catch let error as ServiceError {
            // 700 images of debt and the refusal's own 10, at one a second (less what refilled meanwhile).
            #expect(error.status == .tooManyRequests && (650...710).contains(error.retryAfter ?? 0))
        }
        await #expect(throws: ServiceError.self) { try await limiter.draws(greedy) }
        // Another client has an allowance of its own; a route charges what it learns it costs.
        try await limiter.expensive(other) { permit in permit.charge(250) }
        try await limiter.expensive(other) { permit in permit.charge(200) }
        await #expect(throws: ServiceError.self) { try await limiter.expensive(other) { _ in } }

        // In flight at once: two hold their places, a third is turned away at once.
        let roomy = ClientLimiter(policy: ClientLimiter.Policy(rate: 1000, burst: 1000, concurrency: 2))
        try await roomy.expensive(greedy) { _ in
            try await roomy.expensive(greedy) { _ in
                await #expect(throws: ServiceError.self) { try await roomy.expensive(greedy) { _ in } }
            } as Void
        } as Void
        try await roomy.expensive(greedy) { _ in }
        // Off: nothing is counted.
        for _ in 0..<1000 { try await ClientLimiter(policy: .off).expensive(greedy, images: 1_000_000) { _ in } }
    }

    @Test("over HTTP: a client over its allowance gets 429 with Retry-After; behind a trusted proxy each forwarded client has its own")
    func overHTTP() async throws {
        var configuration = LiveService.configuration
        // This route costs 9 images (3 markers, one theme, three scales): the second runs an
        // allowance of 10 into debt, and the third waits.
        configuration.clientRate = 0.01
        configuration.clientBurst = 10
        configuration.trustedProxies = ["127.0.0.1"]
        let route = ByteBuffer(string: #"{"type": "LineString", "coordinates": [[14.0, 46.0], [14.0, 46.01]]}"#)
        try await LiveService.run(configuration) { client in
            func post(as forwarded: String?) async throws -> LiveResponse {
                var headers: HTTPFields = [:]
                if let forwarded, let name = HTTPField.Name("X-Forwarded-For") { headers[name] = forwarded }
                return try await client.execute(uri: "/v1/routes?themes=day&sprites=false", method: .post, headers: headers, body: route)
            }
            #expect(try await post(as: "198.51.100.1").status == .ok)
            #expect(try await post(as: "198.51.100.1").status == .ok)
            let refused = try await post(as: "198.51.100.1")
            #expect(refused.status == .tooManyRequests)
            #expect(Int(refused.headers[.retryAfter] ?? "") ?? 0 >= 1)
            // Another client behind the same proxy, and the proxy itself, have allowances of their own.
            #expect(try await post(as: "198.51.100.2").status == .ok)
            #expect(try await post(as: nil).status == .ok)
            // Cheap requests are never counted.
            for _ in 0..<20 { #expect(try await client.execute(uri: "/healthz", method: .get).status == .ok) }
        }
    }

    @Test("requests of any kind count against a client's request rate, health checks and metrics aside")
    func requestRate() async throws {
        var configuration = LiveService.configuration
        configuration.clientRequestRate = 0.01
        configuration.clientRequestBurst = 5
        try await LiveService.run(configuration) { client in
            for _ in 0..<5 { #expect(try await client.execute(uri: "/v1/marker.png?distance=5", method: .get).status == .ok) }
            let refused = try await client.execute(uri: "/v1/marker.png?distance=5", method: .get)
            #expect(refused.status == .tooManyRequests)
            #expect(Int(refused.headers[.retryAfter] ?? "") ?? 0 >= 1)
            for _ in 0..<20 {
                #expect(try await client.execute(uri: "/healthz", method: .get).status == .ok)
                #expect(try await client.execute(uri: "/metrics", method: .get).status == .ok)
            }
        }
    }
}
