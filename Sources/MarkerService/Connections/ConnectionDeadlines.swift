import HTTPTypes
import NIOCore
import NIOHTTPTypes

/// Closes connections that hold the server without using it, and discards the rest of a body the
/// service has already answered.
///
/// - A connection must deliver the complete head of its next request within `idle` of opening or
///   of its previous response ending: idle keep-alive connections and slowly sent heads are closed.
/// - A request's body must arrive within `body` of its head, and the response must be written
///   within `request` of it (a client that reads too slowly is cut off).
/// - When the response ends before the body does (a `413`), the rest of the body is read and
///   thrown away, up to `discardBytes`, so the client gets to read the answer; with
///   `Connection: close` the connection is closed once the body has ended (as nginx does).
final class ConnectionDeadlines: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    struct Limits: Sendable {
        var idle: TimeAmount
        var body: TimeAmount
        var request: TimeAmount
        var discardBytes: Int
    }

    private let limits: Limits
    private var idleTimer: Scheduled<Void>?
    private var bodyTimer: Scheduled<Void>?
    private var requestTimer: Scheduled<Void>?
    /// A request's body is still arriving.
    private var readingBody = false
    /// The current request's response has ended while its body has not: discard the rest.
    private var discarding = false
    private var discardedBytes = 0
    /// The current request asked for the connection to close after it.
    private var closeAfterRequest = false

    init(limits: Limits) {
        self.limits = limits
    }

    func handlerAdded(context: ChannelHandlerContext) {
        if context.channel.isActive { startIdleTimer(context) }
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        cancelTimers()
    }

    func channelActive(context: ChannelHandlerContext) {
        startIdleTimer(context)
        context.fireChannelActive()
    }

    func channelInactive(context: ChannelHandlerContext) {
        cancelTimers()
        context.fireChannelInactive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head):
            idleTimer?.cancel()
            idleTimer = nil
            readingBody = true
            discarding = false
            discardedBytes = 0
            closeAfterRequest = head.headerFields[.connection]?.lowercased().contains("close") ?? false
            bodyTimer = schedule(context, after: limits.body)
            requestTimer?.cancel()
            requestTimer = schedule(context, after: limits.request)
            context.fireChannelRead(data)
        case .body(let buffer):
            guard discarding else {
                context.fireChannelRead(data)
                return
            }
            discardedBytes += buffer.readableBytes
            if discardedBytes > limits.discardBytes { context.close(promise: nil) }
        case .end:
            readingBody = false
            bodyTimer?.cancel()
            bodyTimer = nil
            if discarding {
                discarding = false
                if closeAfterRequest {
                    context.close(promise: nil)
                    return
                }
                startIdleTimer(context)
            }
            context.fireChannelRead(data)
        }
    }

    func channelReadComplete(context: ChannelHandlerContext) {
        // Nothing downstream asks for discarded bytes, so keep reading here until the body ends.
        if discarding { context.read() }
        context.fireChannelReadComplete()
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        guard case .end = unwrapOutboundIn(data) else {
            context.write(data, promise: promise)
            return
        }
        requestTimer?.cancel()
        requestTimer = nil
        if readingBody {
            discarding = true
            context.read()
        } else {
            startIdleTimer(context)
        }
        context.write(data, promise: promise)
    }

    private func startIdleTimer(_ context: ChannelHandlerContext) {
        idleTimer?.cancel()
        idleTimer = schedule(context, after: limits.idle)
    }

    private func schedule(_ context: ChannelHandlerContext, after delay: TimeAmount) -> Scheduled<Void> {
        let loopBound = NIOLoopBound(context, eventLoop: context.eventLoop)
        return context.eventLoop.scheduleTask(in: delay) {
            loopBound.value.close(promise: nil)
        }
    }

    private func cancelTimers() {
        for timer in [idleTimer, bodyTimer, requestTimer] { timer?.cancel() }
        idleTimer = nil
        bodyTimer = nil
        requestTimer = nil
    }
}

@available(*, unavailable)
extension ConnectionDeadlines: Sendable {}
