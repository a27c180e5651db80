#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A thread of the process's own, outside libdispatch's pool, that runs one closure and ends.
package enum DetachedThread {
    /// Why a thread could not be started, with pthread_create's error number.
    package struct StartFailure: Error, CustomStringConvertible {
        package let code: Int32
        package var description: String { "cannot start a thread (error \(code))" }
    }

    private final class Body {
        let run: @Sendable () -> Void
        init(_ run: @escaping @Sendable () -> Void) { self.run = run }
    }

    /// Starts a detached thread that runs `body`.
    package static func start(_ body: @escaping @Sendable () -> Void) throws(StartFailure) {
        let retained = Unmanaged.passRetained(Body(body))
        var thread = pthread_t()
        let status = pthread_create(
            &thread, nil,
            { argument in
                guard let argument else { return nil }
                Unmanaged<Body>.fromOpaque(argument).takeRetainedValue().run()
                return nil
            }, retained.toOpaque())
        guard status == 0 else {
            retained.release()
            throw StartFailure(code: status)
        }
        // Nobody joins it: its resources go back to the system when `body` returns.
        pthread_detach(thread)
    }
}
