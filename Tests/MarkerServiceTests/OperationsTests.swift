import Foundation
import HTTPTypes
import HummingbirdTesting
import Logging
import MarkerService
import MarkerSpec
import Synchronization
import Testing

/// `/healthz`, `/metrics` and the request log.
@Suite("Health, metrics and logs")
struct OperationsTests {
    @Test("/healthz answers ok")
    func health() async throws {
        try await LiveService.run { client in
            let response = try await client.execute(uri: "/healthz", method: .get)
            #expect(response.status == .ok)
            #expect(response.text == "ok\n")
        }
    }

    @Test("/metrics counts requests by status, cache hits and misses, and render times")
    func metrics() async throws {
        try await LiveService.run { client in
            _ = try await client.execute(uri: "/v1/marker.png?distance=5", method: .get)
            _ = try await client.execute(uri: "/v1/marker.png?distance=5", method: .get)
            _ = try await client.execute(uri: "/v1/marker.png?distance=oops", method: .get)
            _ = try await client.execute(uri: "/nowhere", method: .get)
            let response = try await client.execute(uri: "/metrics", method: .get)
            #expect(response.status == .ok)
            #expect(response.headers[.contentType]?.hasPrefix("text/plain; version=0.0.4") == true)
            let lines = Set(response.text.split(separator: "\n").map(String.init))
            for expected in [
                #"markerpaint_http_requests_total{route="/v1/marker.png",status="200"} 2"#,
                #"markerpaint_http_requests_total{route="/v1/marker.png",status="400"} 1"#,
                #"markerpaint_http_requests_total{route="NotFound",status="404"} 1"#,
                "markerpaint_cache_misses_total 1",
                "markerpaint_cache_hits_total 1",
                "markerpaint_render_duration_seconds_count 1",
                "# TYPE markerpaint_render_duration_seconds histogram",
            ] {
                #expect(lines.contains(expected), "\(expected)")
            }
            #expect(lines.contains { $0.hasPrefix("markerpaint_cache_bytes ") && !$0.hasSuffix(" 0") })
        }
    }

    @Test("each application counts on its own, however many run in one process")
    func separateRegistries() async throws {
        for _ in 0..<2 {
            try await LiveService.run { client in
                _ = try await client.execute(uri: "/v1/marker.png?distance=6", method: .get)
                let metrics = try await client.execute(uri: "/metrics", method: .get).text
                #expect(metrics.contains("markerpaint_cache_misses_total 1\n"))
            }
        }
    }

    @Test("every request is one info line with method, path, status and duration")
    func requestLog() async throws {
        let lines = RecordedLines()
        let logger = Logger(label: "test") { _ in RecordingLogHandler(lines: lines) }
        try await LiveService.run(logger: logger) { client in
            _ = try await client.execute(uri: "/healthz", method: .get)
            _ = try await client.execute(uri: "/v1/marker.png?distance=-1", method: .get)
        }
        let requestLines = lines.all.filter { $0.source == "MarkerService" }
        #expect(requestLines.count == 2)
        #expect(requestLines.allSatisfy { $0.level == .info })
        #expect(requestLines.first?.message.wholeMatch(of: /GET \/healthz 200 [0-9]+\.[0-9]{3}ms/) != nil)
        #expect(requestLines.last?.message.wholeMatch(of: /GET \/v1\/marker\.png\?distance=-1 400 [0-9]+\.[0-9]{3}ms/) != nil)
    }
}

/// Log lines kept in memory, from any thread.
final class RecordedLines: Sendable {
    struct Line: Sendable {
        let level: Logger.Level
        let message: String
        let source: String
    }

    private let lines = Mutex<[Line]>([])

    func append(_ line: Line) { lines.withLock { $0.append(line) } }
    var all: [Line] { lines.withLock { $0 } }
}

/// A swift-log backend that records lines instead of printing them.
struct RecordingLogHandler: LogHandler {
    let lines: RecordedLines
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .info

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        lines.append(.init(level: event.level, message: event.message.description, source: event.source))
    }
}
