import Foundation
import Testing

@testable import MarkerService

/// The service's log writer: a blocked reader costs dropped lines, counted and reported, never a wait.
@Suite("Log writer")
struct LogWriterTests {
    @Test("with nobody reading, writes return at once; past the queue's bound lines are dropped, then reported once reading resumes")
    func dropsAndReports() async throws {
        let pipe = Pipe()
        let writer = try LogWriter(descriptor: pipe.fileHandleForWriting.fileDescriptor, capacityBytes: 4096)
        let line = Array((String(repeating: "x", count: 99) + "\n").utf8)
        let clock = ContinuousClock()
        let started = clock.now
        // 2,000 lines of 100 bytes: 200 KB, far more than the pipe (64 KB) and the queue (4 KB) hold.
        for _ in 0..<2000 { writer.write(line) }
        #expect(started.duration(to: clock.now) < .seconds(1))
        #expect(writer.droppedUnreported > 0)

        // Read until the report arrives; what was written and what was dropped add up to every line.
        var received = Data()
        let reader = pipe.fileHandleForReading
        while !String(decoding: received, as: UTF8.self).contains("log lines dropped") {
            let chunk = reader.availableData
            try #require(!chunk.isEmpty)
            received.append(chunk)
        }
        let text = String(decoding: received, as: UTF8.self)
        let written = text.split(separator: "\n").filter { $0.hasPrefix("xxx") }.count
        let report = try #require(text.split(separator: "\n").first { $0.contains("log lines dropped") })
        let dropped = try #require(Int(report.split(separator: " ")[2]))
        #expect(written + dropped == 2000, "\(written) written, \(dropped) dropped")
        #expect(dropped > 0)
    }
}
