import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A TCP connection to the service on loopback that sends exactly the bytes a test gives, for what
/// HTTP clients will not do: stay idle, send half a head, trickle a body, send a broken chunk.
///
/// Its sends and reads block, so they run on a thread of their own: blocking Swift's shared pool
/// would starve the server under test, which accepts connections on it.
public final class RawConnection: Sendable {
    private let descriptor: Int32

    /// Connects to 127.0.0.1:`port`; reads give up after `readTimeout` seconds.
    public init(port: Int, readTimeout: Double = 10) throws {
        descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw POSIXError(.init(rawValue: errno) ?? .EIO) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else {
            let code = errno
            close(descriptor)
            throw POSIXError(.init(rawValue: code) ?? .EIO)
        }
        var timeout = timeval(tv_sec: Int(readTimeout), tv_usec: Int((readTimeout - readTimeout.rounded(.down)) * 1e6))
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    }

    deinit {
        close(descriptor)
    }

    /// Sends `text`; false if the server has closed the connection.
    @discardableResult
    public func send(_ text: String) async -> Bool {
        let bytes = Array(text.utf8)
        return await Self.onThread { self.blockingSend(bytes) }
    }

    /// Reads until the server closes the connection or the read timeout passes with nothing new.
    public func readUntilClosed() async -> Ending {
        await Self.onThread { self.blockingReadUntilClosed() }
    }

    /// `readUntilClosed`, with how long it took, timed on its own thread: however long the test's
    /// task then waits to run again does not count.
    public func timedReadUntilClosed() async -> (ending: Ending, duration: Duration) {
        await Self.onThread { Self.timed { self.blockingReadUntilClosed() } }
    }

    /// Reads one response head and body by Content-Length (enough for the service's answers).
    public func readResponse() async -> (status: Int, headers: String, body: String)? {
        await Self.onThread { self.blockingReadResponse() }
    }

    /// Sends a request and reads its response on a new connection.
    public static func exchange(port: Int, _ request: String) async throws -> (status: Int, headers: String, body: String)? {
        let connection = try RawConnection(port: port)
        await connection.send(request)
        return await connection.readResponse()
    }

    /// `readResponse`, timed on its own thread.
    public func timedReadResponse() async -> (response: Response?, duration: Duration) {
        await Self.onThread { Self.timed { self.blockingReadResponse() } }
    }

    /// Sends a request on a new connection and reads its response, timed on its own thread from
    /// connecting to the last byte.
    public static func timedExchange(port: Int, _ request: String) async throws -> (response: Response?, duration: Duration) {
        let bytes = Array(request.utf8)
        return try await onThread {
            Result { () throws -> (Response?, Duration) in
                try timed {
                    let connection = try RawConnection(port: port)
                    _ = connection.blockingSend(bytes)
                    return connection.blockingReadResponse()
                }
            }
        }.get()
    }

    /// A response as `readResponse` reads it.
    public typealias Response = (status: Int, headers: String, body: String)

    private static func timed<Value>(_ body: () throws -> Value) rethrows -> (Value, Duration) {
        let start = ContinuousClock.now
        let value = try body()
        return (value, start.duration(to: .now))
    }

    private static func onThread<Value: Sendable>(_ body: @escaping @Sendable () -> Value) async -> Value {
        await withCheckedContinuation { continuation in
            Thread { continuation.resume(returning: body()) }.start()
        }
    }

    private func blockingSend(_ bytes: [UInt8]) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes.withUnsafeBytes { buffer in
                Glibc.send(descriptor, buffer.baseAddress.map { $0 + offset }, bytes.count - offset, Int32(MSG_NOSIGNAL))
            }
            if sent < 0 {
                if errno == EINTR { continue }
                return false
            }
            offset += sent
        }
        return true
    }

    /// What happened when reading until the server closed the connection.
    public enum Ending: Equatable, Sendable {
        /// The server closed it (FIN or reset) after sending these bytes.
        case closed(String)
        /// Nothing more came for the read timeout; the connection is still open.
        case timedOut(String)
    }

    private func blockingReadUntilClosed() -> Ending {
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            if count > 0 {
                received.append(contentsOf: buffer[0..<count])
            } else if count == 0 {
                return .closed(String(decoding: received, as: UTF8.self))
            } else if errno == EINTR {
                continue
            } else if errno == EAGAIN || errno == EWOULDBLOCK {
                return .timedOut(String(decoding: received, as: UTF8.self))
            } else {
                return .closed(String(decoding: received, as: UTF8.self))
            }
        }
    }

    private func blockingReadResponse() -> (status: Int, headers: String, body: String)? {
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            if let end = received.firstRange(of: Array("\r\n\r\n".utf8)) {
                let head = String(decoding: received[..<end.lowerBound], as: UTF8.self)
                let length =
                    head.split(separator: "\r\n").compactMap { line -> Int? in
                        let parts = line.split(separator: ":", maxSplits: 1)
                        guard parts.count == 2, parts[0].lowercased() == "content-length" else { return nil }
                        return Int(parts[1].trimmingCharacters(in: .whitespaces))
                    }.first ?? 0
                if received.count - end.upperBound >= length {
                    let status = head.split(separator: " ").dropFirst().first.flatMap { Int($0) } ?? 0
                    let body = String(decoding: received[end.upperBound..<(end.upperBound + length)], as: UTF8.self)
                    return (status, head, body)
                }
            }
            let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            if count > 0 {
                received.append(contentsOf: buffer[0..<count])
            } else if count < 0, errno == EINTR {
                continue
            } else {
                return nil
            }
        }
    }
}
