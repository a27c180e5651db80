import Foundation
import TestSupport
import Testing

/// `markerpaint serve` as an operator runs it: it says where it listens, and SIGTERM ends it
/// within the drain deadline whatever its clients do.
@Suite("markerpaint serve")
struct ServeCommandTests {
    /// A running `markerpaint serve --port 0` and the port it reported.
    final class Server: Sendable {
        let process: Process
        let port: Int

        /// Starts `markerpaint serve` with `extra` arguments, logging at `logLevel` to `standardError`
        /// (nowhere by default).
        init(_ extra: [String], logLevel: String = "warning", standardError: Pipe? = nil) throws {
            process = Process()
            process.executableURL = CLI.executable
            process.arguments = ["serve", "--port", "0", "--log-level", logLevel] + extra
            let output = Pipe()
            process.standardOutput = output
            process.standardError = standardError ?? FileHandle.nullDevice
            try process.run()
            // The one line it prints once listening: "markerpaint serve: listening on http://127.0.0.1:PORT".
            var line = Data()
            while !line.contains(UInt8(ascii: "\n")) {
                let byte = output.fileHandleForReading.readData(ofLength: 1)
                guard !byte.isEmpty else { break }
                line.append(byte)
            }
            let text = String(decoding: line, as: UTF8.self)
            guard text.hasPrefix("markerpaint serve: listening on http://127.0.0.1:"),
                let port = Int(text.split(separator: ":").last?.trimmingCharacters(in: .whitespacesAndNewlines) ?? "")
            else {
                process.terminate()
                throw CocoaError(.fileReadCorruptFile, userInfo: [NSLocalizedDescriptionKey: "unexpected first line: \(text)"])
            }
            self.port = port
        }

        /// The processor seconds the service has used so far (user and system, from `/proc`): the work
        /// a request caused is the difference, however busy the machine is.
        func processorSeconds() throws -> Double {
            let stat = try String(contentsOfFile: "/proc/\(process.processIdentifier)/stat", encoding: .utf8)
            // The command name in parentheses may hold spaces; utime and stime are the 12th and 13th fields after it.
            let fields = try #require(stat.split(separator: ")").last).split(separator: " ")
            let ticks = try #require(Double(fields[11])) + #require(Double(fields[12]))
            return ticks / Double(sysconf(Int32(_SC_CLK_TCK)))
        }

        /// Sends SIGTERM and waits for the exit, at most 20 s (then SIGKILL); the seconds it took,
        /// timed on a thread of its own so that how busy the test process is does not count.
        func terminate() async -> Double {
            let process = process
            return await withCheckedContinuation { continuation in
                Thread {
                    let start = ContinuousClock.now
                    kill(process.processIdentifier, SIGTERM)
                    while process.isRunning, start.duration(to: .now) < .seconds(20) { usleep(10_000) }
                    if process.isRunning {
                        kill(process.processIdentifier, SIGKILL)
                        process.waitUntilExit()
                    }
                    let elapsed = start.duration(to: .now).components
                    continuation.resume(returning: Double(elapsed.seconds) + Double(elapsed.attoseconds) * 1e-18)
                }.start()
            }
        }
    }

    @Test("`markerpaint serve --help` is the service's own help, with every option it takes")
    func helpIsTheService() throws {
        let run = try CLI.run(["serve", "--help"], in: FileManager.default.temporaryDirectory)
        #expect(run.status == 0)
        for option in ["--max-route-bytes", "--drain-timeout", "--cors-origin", "USAGE: markerpaint serve"] {
            #expect(run.stdout.contains(option), "\(option) missing from: \(run.stdout)")
        }
    }

    @Test(
        "bad configuration fails fast: one line naming the problem, a non-zero exit, nothing listening",
        arguments: [
            (["--signing-key-file", "/nonexistent/keys"], "the signing key file /nonexistent/keys: no such file"),
            (["--signing-key-file", "SHORT"], "is 16 bytes; keys must be at least 32 random bytes"),
            (["--signing-key-file", "MALFORMED"], "line 1 is not a key in hex or base64url"),
            (["--signing-key-file", "EMPTY"], "holds no key"),
            (["--trusted-proxy", "10.0.0.0/33"], "the trusted proxy \"10.0.0.0/33\" is not an address or a range"),
            (["--trusted-proxy", "proxy.example.com"], "is not an address or a range"),
            (["--client-rate", "nan"], "the client rate must be"), (["--client-burst", "0"], "the client burst must be"),
        ])
    func badConfiguration(arguments: [String], problem: String) throws {
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let keys = ["SHORT": "00112233445566778899aabbccddeeff\n", "MALFORMED": "not a key\n", "EMPTY": "\n# nothing yet\n"]
        var arguments = arguments
        if let text = keys[arguments[1]] {
            let file = folder.appendingPathComponent("keys")
            try Data(text.utf8).write(to: file)
            arguments[1] = file.path
        }
        // A port of its own: were anything to listen, the probe below would find it.
        let port = Int.random(in: 20_000..<60_000)
        let run = try CLI.run(["serve", "--port", String(port)] + arguments, in: folder)
        #expect(run.status != 0)
        #expect(run.stderr.contains(problem), "\(run.stderr)")
        #expect(run.stderr.split(separator: "\n").count == 1, "\(run.stderr)")
        #expect(!run.stdout.contains("listening"))
        #expect(throws: POSIXError.self) { _ = try RawConnection(port: port, readTimeout: 1) }
    }

    @Test("without markerpaint-serve beside it, `markerpaint serve` says so in one line and how to build it")
    func missingService() throws {
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let lonely = folder.appendingPathComponent("markerpaint")
        try FileManager.default.copyItem(at: CLI.executable, to: lonely)
        let run = try CLI.run(["serve", "--port", "0"], in: folder, executable: lonely)
        #expect(run.status != 0)
        #expect(run.stderr.hasPrefix("markerpaint: markerpaint-serve is not installed beside markerpaint"), "\(run.stderr)")
        #expect(run.stderr.contains("--product markerpaint-serve"))
        #expect(run.stderr.split(separator: "\n").count == 1)
    }

    @Test("SIGTERM exits 0 within the drain deadline even while a client trickles a body")
    func drainDeadline() async throws {
        let server = try Server(["--drain-timeout", "2", "--body-timeout", "600", "--request-timeout", "600", "--idle-timeout", "600"])
        #expect(try await RawConnection.exchange(port: server.port, "GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")?.status == 200)
        let slow = try RawConnection(port: server.port, readTimeout: 30)
        await slow.send("POST /v1/routes HTTP/1.1\r\nHost: x\r\nContent-Length: 100000\r\n\r\n{\"type\":")
        let trickle = Task {
            while !Task.isCancelled, await slow.send(" ") {
                try? await Task.sleep(for: .milliseconds(100))
            }
        }
        defer { trickle.cancel() }
        try await Task.sleep(for: .milliseconds(300))
        let seconds = await server.terminate()
        #expect(server.process.terminationReason == .exit)
        #expect(server.process.terminationStatus == 0)
        // The drain deadline (2 s) plus time to cancel and exit, far short of the 600 s the client could take.
        #expect(seconds < 8, "took \(seconds) s")
    }

    @Test("a 16 KB zigzag of 40 million km is refused in under a second of processor time, and the service stays under 200 MB")
    func zigzagIsCheap() async throws {
        let server = try Server([])
        let positions = (0..<2000).map { $0.isMultiple(of: 2) ? "[0,0]" : "[179.9,0]" }
        let zigzag = #"{"type":"LineString","coordinates":[\#(positions.joined(separator: ","))]}"#
        let processorBefore = try server.processorSeconds()
        let response = try await RawConnection.exchange(
            port: server.port, "POST /v1/routes HTTP/1.1\r\nHost: x\r\nContent-Length: \(zigzag.utf8.count)\r\n\r\n\(zigzag)")
        #expect(response?.status == 400)
        #expect(response?.body.contains("more than a marker can show") == true, "\(response?.body ?? "")")
        let processor = try server.processorSeconds() - processorBefore
        #expect(processor < 1, "took \(processor) s of processor time")
        #expect(try await RawConnection.exchange(port: server.port, "GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")?.status == 200)
        // The service's own peak memory, as the kernel counts it.
        let status = try String(contentsOfFile: "/proc/\(server.process.processIdentifier)/status", encoding: .utf8)
        let peakLine = try #require(status.split(separator: "\n").first { $0.hasPrefix("VmHWM:") })
        let peakKilobytes = try #require(Int(peakLine.split(separator: " ", omittingEmptySubsequences: true)[1]))
        #expect(peakKilobytes < 200 * 1024, "peak \(peakKilobytes) kB")
        _ = await server.terminate()
    }

    /// A GPX track of `points` points, about 40 bytes each.
    static func largeTrack(points: Int) -> String {
        var text = "<gpx><trk><trkseg>\n"
        for index in 0..<points {
            let latitude = 46 + Double(index % 1000) * 1e-5
            let longitude = 14 + Double(index) * 1e-6
            text += "<trkpt lat=\"\(latitude)\" lon=\"\(longitude)\"/>\n"
        }
        return text + "</trkseg></trk></gpx>"
    }

    @Test("parsing and placing routes never delays health checks or cached images")
    func routeWorkStaysOffTheSharedPool() async throws {
        // Three routes at once from one client: more than the per-client default of two.
        let server = try Server(["--max-route-markers", "1000000", "--client-concurrency", "3"])
        defer { server.process.terminate() }
        let cached = "GET /v1/marker.png?distance=42 HTTP/1.1\r\nHost: x\r\n\r\n"
        let health = "GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n"
        #expect(try await RawConnection.exchange(port: server.port, cached)?.status == 200)
        let track = Self.largeTrack(points: 250_000)
        let request = "POST /v1/routes?themes=day&sprites=false HTTP/1.1\r\nHost: x\r\nContent-Length: \(track.utf8.count)\r\n\r\n\(track)"
        // Three routes, each on a connection of its own, sent whole before anything else is asked, so
        // the service is working on them; their answers are timed on threads of their own.
        let connections = try (0..<3).map { _ in try RawConnection(port: server.port, readTimeout: 120) }
        await withTaskGroup(of: Void.self) { group in
            for connection in connections { group.addTask { await connection.send(request) } }
        }
        let routes = connections.map { connection in Task { await connection.timedReadResponse() } }
        var slowest = Duration.zero
        for _ in 0..<5 {
            for cheap in [health, cached] {
                let (response, duration) = try await RawConnection.timedExchange(port: server.port, cheap)
                #expect(response?.status == 200)
                slowest = max(slowest, duration)
            }
        }
        var firstRoute = Duration.seconds(3600)
        for route in routes {
            let (response, duration) = await route.value
            #expect(response?.status == 200, "\(response?.body.prefix(300) ?? "no response")")
            firstRoute = min(firstRoute, duration)
        }
        // Health checks and cached images were answered in a small fraction of the time the routes
        // took; sharing threads with the routes, they would wait for a route to finish parsing.
        #expect(slowest * 4 < firstRoute, "slowest cheap request \(slowest), first route \(firstRoute)")
    }

    @Test("SIGTERM with nothing in flight exits at once")
    func quietExit() async throws {
        let server = try Server([])
        #expect(try await RawConnection.exchange(port: server.port, "GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")?.status == 200)
        let seconds = await server.terminate()
        #expect(server.process.terminationStatus == 0)
        #expect(seconds < 3, "took \(seconds) s")
    }

    // The limit stops a stalled server, which would never answer; 3,000 round trips to a debug
    // build take 10 s alone and over a minute beside every other suite on two cores.
    @Test(
        "an access log on a stderr nobody reads never stalls a request: lines queue on a thread of their own, none lost",
        .timeLimit(.minutes(3)))
    func stderrNobodyReads() async throws {
        try await Exclusively.run {
            let errors = Pipe()
            let server = try Server([], logLevel: "info", standardError: errors)
            defer { server.process.terminate() }
            // 3,000 requests log about 400 KB, several times what the pipe holds unread (64 KB). A read
            // may wait 30 s: in loaded full runs one answer took over 10 s (a stalled server never answers).
            let connection = try RawConnection(port: server.port, readTimeout: 30)
            var answered = 0
            for _ in 0..<3000 {
                await connection.send("GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
                guard let response = await connection.readResponse(), response.status == 200 else { break }
                answered += 1
            }
            #expect(answered == 3000)
            // A server that stopped answering may never write again: stopped, its end of the pipe
            // closes, so the read below ends and the test fails instead of hanging the suite.
            if answered < 3000 { server.process.terminate() }
            // Now read: every line arrives once the writer thread can write again.
            var log = ""
            var lines: [Substring] = []
            while lines.count < 3000 {
                let chunk = errors.fileHandleForReading.availableData
                guard !chunk.isEmpty else { break }
                log += String(decoding: chunk, as: UTF8.self)
                lines = log.split(separator: "\n").filter { $0.contains("GET /healthz 200") }
            }
            #expect(lines.count == 3000)
            #expect(lines.first?.contains(" info markerpaint.serve : ") == true)
        }
    }
}
