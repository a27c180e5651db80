import AsyncHTTPClient
import NIOCore
import NIOHTTP1
import NIOPosix
import Synchronization

/// GETs over kept-alive connections, with timeouts on connecting and on every read, and retries
/// with backoff on 5xx, 429 (after its `Retry-After`) and cut connections.
public final class HTTPFetcher: Sendable {
    /// Limits on one fetcher's requests.
    public struct Options: Sendable {
        /// Requests in flight at once.
        public var concurrency = 8
        public var connectTimeout: Duration = .seconds(10)
        /// The longest wait for any bytes of a response.
        public var readTimeout: Duration = .seconds(30)
        /// Attempts of one request, the first included.
        public var attempts = 5
        /// The first wait before a retry; each next one doubles, at most `maximumBackoff`.
        public var backoff: Duration = .milliseconds(250)
        public var maximumBackoff: Duration = .seconds(30)

        public init() {}
    }

    /// One response, its body read whole.
    public struct Response: Sendable {
        public var status: Int
        public var headers: [(String, String)]
        public var body: [UInt8]
    }

    public let options: Options
    private let client: HTTPClient
    private let tally = Mutex<(requests: Int, bytes: UInt64)>((0, 0))
    /// Limits requests in flight to `concurrency` however many tasks ask.
    private let gate: Gate

    public init(options: Options = Options()) {
        self.options = options
        var configuration = HTTPClient.Configuration()
        configuration.timeout = .init(connect: .nanoseconds(options.connectTimeout.nanoseconds), read: .nanoseconds(options.readTimeout.nanoseconds))
        configuration.connectionPool = .init(idleTimeout: .seconds(60), concurrentHTTP1ConnectionsPerHostSoftLimit: options.concurrency)
        configuration.decompression = .disabled
        configuration.redirectConfiguration = .follow(max: 5, allowCycles: false)
        client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
        gate = Gate(options.concurrency)
    }

    /// Closes the connections; the fetcher is done.
    public func shutdown() async {
        try? await client.shutdown()
    }

    /// Requests made (retries included) and body bytes read.
    public var counts: (requests: Int, bytes: UInt64) { tally.withLock { $0 } }

    /// GETs `url` with `headers`, retrying what may pass; `accept` says, from the status and
    /// headers, at most how many bytes of the body to read (nil: none, the body is dropped), or throws.
    public func get(
        _ url: String, headers: [(String, String)] = [], accept: @Sendable (Int, [(String, String)]) throws -> Int?
    ) async throws -> Response {
        var wait = options.backoff
        var attempt = 1
        while true {
            let outcome: Result<Response, any Error>
            do {
                outcome = .success(try await gate.run { try await self.once(url, headers: headers, accept: accept) })
            } catch let retry as Retry {
                outcome = .failure(retry)
            } catch let error as HTTPClientError where Self.isCut(error) {
                outcome = .failure(Retry(reason: "\(error)", after: nil))
            } catch let error as NIOConnectionError {
                outcome = .failure(Retry(reason: "cannot connect: \(error)", after: nil))
            } catch let error as IOError {
                outcome = .failure(Retry(reason: "the connection failed: \(error)", after: nil))
            } catch is ChannelError {
                outcome = .failure(Retry(reason: "the connection was cut", after: nil))
            } catch let error as HTTPParserError {
                // A body cut short (the connection closed before its length) reads as a parser error.
                outcome = .failure(Retry(reason: "the response was cut short (\(error))", after: nil))
            } catch let error as SourceError {
                throw error
            } catch {
                // TLS failures are not retried: a certificate or protocol mismatch will not pass. NIOSSL
                // is not imported here (AsyncHTTPClient brings it), so its errors are told by their type's name.
                if String(reflecting: type(of: error)).contains("NIOSSL") {
                    let reason = "\(error)".split(separator: "(").first.map(String.init) ?? "\(error)"
                    throw SourceError("\(url): the HTTPS connection failed (TLS \(reason))")
                }
                throw SourceError("\(url): \(error)")
            }
            switch outcome {
            case .success(let response): return response
            case .failure(let error):
                let retry = error as? Retry
                guard attempt < options.attempts else {
                    throw SourceError("\(url): \(retry?.reason ?? "\(error)") after \(attempt) attempts")
                }
                let pause = min(max(retry?.after ?? wait, wait), options.maximumBackoff)
                try await Task.sleep(for: pause)
                wait = min(wait * 2, options.maximumBackoff)
                attempt += 1
            }
        }
    }

    private func once(_ url: String, headers: [(String, String)], accept: @Sendable (Int, [(String, String)]) throws -> Int?) async throws -> Response {
        var request = HTTPClientRequest(url: url)
        request.headers.add(name: "User-Agent", value: "markerpaint")
        for (name, value) in headers { request.headers.add(name: name, value: value) }
        tally.withLock { $0.requests += 1 }
        let deadline = options.readTimeout * 4 + options.connectTimeout
        let response = try await client.execute(request, timeout: .nanoseconds(deadline.nanoseconds))
        let status = Int(response.status.code)
        let pairs = response.headers.map { ($0.name, $0.value) }
        if status >= 500 || status == 429 {
            // Retry-After in seconds (an HTTP date is read as no hint).
            let after = response.headers.first(name: "Retry-After").flatMap(Int.init).map { Duration.seconds(min($0, 300)) }
            throw Retry(reason: "HTTP \(status)", after: after)
        }
        // The body is read only when wanted: a response not wanted is dropped, its connection closed.
        guard let limit = try accept(status, pairs) else { return Response(status: status, headers: pairs, body: []) }
        var body: ByteBuffer
        do {
            body = try await response.body.collect(upTo: limit)
        } catch is NIOTooManyBytesError {
            throw SourceError("\(url): the server sent more than the \(limit) bytes asked")
        }
        let bytes = body.readBytes(length: body.readableBytes) ?? []
        tally.withLock { $0.bytes += UInt64(bytes.count) }
        return Response(status: status, headers: pairs, body: bytes)
    }

    /// The value of the header `name` (any case) among `headers`.
    public static func header(_ name: String, in headers: [(String, String)]) -> String? {
        headers.first { $0.0.lowercased() == name.lowercased() }?.1
    }

    /// A failure worth another attempt.
    struct Retry: Error {
        var reason: String
        var after: Duration?
    }

    /// Whether the connection was cut or went quiet: worth another attempt. A TLS failure is not.
    private static func isCut(_ error: HTTPClientError) -> Bool {
        error == .remoteConnectionClosed || error == .readTimeout || error == .connectTimeout || error == .deadlineExceeded
    }
}

extension Duration {
    var nanoseconds: Int64 {
        let (seconds, attoseconds) = components
        return seconds * 1_000_000_000 + attoseconds / 1_000_000_000
    }
}

/// At most `limit` bodies run at once; the rest wait their turn, first come first served.
actor Gate {
    private let limit: Int
    private var running = 0
    private var waiting: [CheckedContinuation<Void, Never>] = []

    init(_ limit: Int) { self.limit = max(limit, 1) }

    func run<Value: Sendable>(_ body: @Sendable () async throws -> Value) async throws -> Value {
        if running >= limit {
            await withCheckedContinuation { waiting.append($0) }
        } else {
            running += 1
        }
        defer {
            if waiting.isEmpty {
                running -= 1
            } else {
                waiting.removeFirst().resume()
            }
        }
        return try await body()
    }
}
