public import Logging

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// swift-log's handler for the service: formats a line as swift-log's stream handler does
/// (`2026-11-23T21:08:18+0000 info markerpaint.serve : key=value [source] message`) and hands it
/// to a `LogWriter`, so logging costs a request the formatting and a queue append, never a write.
public struct ServiceLogHandler: LogHandler {
    public var logLevel: Logger.Level = .info
    public var metadata: Logger.Metadata = [:]
    public var metadataProvider: Logger.MetadataProvider?
    private let label: String
    private let writer: LogWriter

    init(label: String, writer: LogWriter) {
        self.label = label
        self.writer = writer
    }

    /// A logger writing to standard error through the process's writer thread, or swift-log's
    /// stream handler if that thread could not be started.
    public static func standardErrorLogger(label: String, level: Logger.Level) -> Logger {
        var logger =
            LogWriter.standardError.map { writer in Logger(label: label) { ServiceLogHandler(label: $0, writer: writer) } }
            ?? Logger(label: label) { StreamLogHandler.standardError(label: $0) }
        logger.logLevel = level
        return logger
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    public func log(event: LogEvent) {
        var merged = metadata
        if let provided = metadataProvider?.get() { merged.merge(provided) { _, new in new } }
        if let given = event.metadata { merged.merge(given) { _, new in new } }
        let pairs = merged.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
        let line = "\(Self.timestamp()) \(event.level) \(label) :\(pairs.isEmpty ? "" : " " + pairs) [\(event.source)] \(event.message)\n"
        writer.write(Array(line.utf8))
    }

    /// Now in UTC, ISO 8601 to the second.
    private static func timestamp() -> String {
        var now = time(nil)
        var parts = tm()
        gmtime_r(&now, &parts)
        var buffer = [CChar](repeating: 0, count: 32)
        let count = strftime(&buffer, buffer.count, "%Y-%m-%dT%H:%M:%S+0000", &parts)
        return String(decoding: buffer.prefix(count).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
