import HTTPTypes
import HummingbirdTesting
import NIOCore

/// A client of a service running on loopback that waits as long as a loaded machine needs.
///
/// HummingbirdTesting's `.live` client gives up on a response after 20 s, a speed limit in disguise:
/// in CI, on two cores shared with Chromium, MapLibre and Python oracles, a route or progress request
/// has taken longer. The tests assert behaviour, so the client waits up to `LiveClient.patience` and
/// only a hang fails.
struct LiveClient: Sendable {
    /// How long a request may go without an answer before the test fails as hung.
    static let patience: Duration = .seconds(300)

    let client: TestClient
    let port: Int?

    /// Sends a request and returns its whole response.
    func execute(
        uri: String, method: HTTPRequest.Method, headers: HTTPFields = [:], body: ByteBuffer? = nil
    ) async throws -> LiveResponse {
        var headers = headers
        headers[.connection] = "keep-alive"
        let response = try await client.execute(
            TestClient.Request(uri, method: method, authority: "localhost", headers: headers, body: body))
        return LiveResponse(head: response.head, body: response.body ?? ByteBuffer())
    }

    /// Sends a request and hands its response to `check`.
    @discardableResult
    func execute<Value>(
        uri: String, method: HTTPRequest.Method, headers: HTTPFields = [:], body: ByteBuffer? = nil,
        testCallback check: (LiveResponse) async throws -> Value
    ) async throws -> Value {
        try await check(execute(uri: uri, method: method, headers: headers, body: body))
    }
}

/// A whole response from the live service.
struct LiveResponse: Sendable {
    let head: HTTPResponse
    let body: ByteBuffer

    var status: HTTPResponse.Status { head.status }
    var headers: HTTPFields { head.headerFields }
}
