import Foundation
import Testing

@testable import MarkerService

/// The service's log writer: a blocked reader costs dropped lines, counted and reported, never a wait.
@Suite("Log writer")
struct LogWriterTests {
    @Test(
        "with nobody reading, writes return at once; past the queue's bound lines are dropped, then reported once reading resumes",
        .timeLimit(.minutes(1)))
    func dropsAndReports() async throws {
        let pipe = Pipe()
        let writer = try LogWriter(descriptor: pipe.fileHandleForWriting.fileDescriptor, capacityBytes: 4096)
        let line = Array((String(repeating: "x", count: 99) + "\n").utf8)
        let clock = ContinuousClock()
        let started = clock.now
        // 2,000 lines of 100 bytes: 200 KB, far more than the pipe (64 KB) and the queue (4 KB) hold.
        for _ in 0..<2000 { writer.write(line) }
        #expect(started.duration(to: clock.now) < .seconds(1))

        // Read until every line is accounted for: written, or counted in a report. The writer may
        // report drops more than once (each time it takes the queue), so every report is added up.
        var received: [UInt8] = []
        var written = 0
        var dropped = 0
        let reader = pipe.fileHandleForReading
        while written + dropped < 2000 {
            let chunk = reader.availableData
            try #require(!chunk.isEmpty)
            received += chunk
            guard let end = received.lastIndex(of: UInt8(ascii: "\n")) else { continue }
            for text in String(decoding: received[...end], as: UTF8.self).split(separator: "\n") {
                if text.hasPrefix("xxx") {
                    written += 1
                } else {
                    try #require(text.contains("log lines dropped"), "unexpected line \(text)")
                    dropped += try #require(Int(text.split(separator: " ")[2]))
                }
            }
            received.removeSubrange(...end)
        }
        #expect(written + dropped == 2000, "\(written) written, \(dropped) dropped")
        #expect(dropped > 0, "nothing dropped, though 200 KB went to a 64 KB pipe and a 4 KB queue with nobody reading")
    }
}
