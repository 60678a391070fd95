// The sample's channel handlers: what a small HTTP/1 service written straight on SwiftNIO has. None of them knows
// about ChainTrace.
#if NIO
    import Foundation
    import NIOCore
    import NIOHTTP1
    import Synchronization

    /// Writes a whole response — head, body and end — and flushes it: `content-length` set, so the connection is
    /// kept alive.
    func respond(
        _ context: ChannelHandlerContext,
        _ status: HTTPResponseStatus,
        body: String = "",
        headers extra: [(String, String)] = []
    ) {
        var headers = HTTPHeaders(extra)
        headers.add(name: "content-length", value: "\(body.utf8.count)")
        let head = HTTPResponseHead(version: .http1_1, status: status, headers: headers)
        context.write(NIOAny(HTTPServerResponsePart.head(head)), promise: nil)
        if !body.isEmpty {
            let buffer = context.channel.allocator.buffer(string: body)
            context.write(NIOAny(HTTPServerResponsePart.body(.byteBuffer(buffer))), promise: nil)
        }
        context.writeAndFlush(NIOAny(HTTPServerResponsePart.end(nil)), promise: nil)
    }

    /// Lets `requestsPerSecond` requests through each second, over all connections, and answers 429 to the rest
    /// (once the request has been read whole).
    final class RateLimitHandler: ChannelInboundHandler {
        typealias InboundIn = HTTPServerRequestPart
        typealias InboundOut = HTTPServerRequestPart

        private let window: RateWindow
        private var limited = false

        init(window: RateWindow) {
            self.window = window
        }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            if case .head = unwrapInboundIn(data) { limited = !window.admits() }
            guard limited else { return context.fireChannelRead(data) }
            if case .end = unwrapInboundIn(data) { respond(context, .tooManyRequests) }
        }
    }

    /// The current second and the requests counted in it, shared by every connection's rate limiter.
    final class RateWindow: Sendable {
        let requestsPerSecond: Int
        private let state = Mutex((second: 0, count: 0))

        init(requestsPerSecond: Int) {
            self.requestsPerSecond = requestsPerSecond
        }

        /// Counts a request; whether it is within this second's allowance.
        func admits() -> Bool {
            let second = Int(Date().timeIntervalSince1970)
            return state.withLock { window in
                if window.second != second { window = (second, 0) }
                window.count += 1
                return window.count <= requestsPerSecond
            }
        }
    }

    /// Answers 401 to API calls (paths under `/api/`) that carry no `x-api-key`; lets every other request through.
    final class APIKeyHandler: ChannelInboundHandler {
        typealias InboundIn = HTTPServerRequestPart
        typealias InboundOut = HTTPServerRequestPart

        private var rejecting = false

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            if case .head(let head) = unwrapInboundIn(data) {
                rejecting = head.uri.hasPrefix("/api/") && head.headers.first(name: "x-api-key")?.isEmpty != false
            }
            guard rejecting else { return context.fireChannelRead(data) }
            if case .end = unwrapInboundIn(data) { respond(context, .unauthorized) }
        }
    }

    /// Signs an audit record of every API call before passing it on — on the event loop, a millisecond of hashing:
    /// the handler that blocks the loop, which `chaintrace render` flags.
    final class AuditHandler: ChannelInboundHandler {
        typealias InboundIn = HTTPServerRequestPart
        typealias InboundOut = HTTPServerRequestPart

        private(set) var lastSignature: UInt64 = 0

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            if case .head(let head) = unwrapInboundIn(data), head.uri.hasPrefix("/api/") {
                lastSignature = sign("\(head.method) \(head.uri)", for: .milliseconds(1))
            }
            context.fireChannelRead(data)
        }

        /// Hashes `record` over and over for `duration`: a stand-in for signing it with a slow key.
        private func sign(_ record: String, for duration: Duration) -> UInt64 {
            var hash: UInt64 = 0xcbf2_9ce4_8422_2325
            let deadline = ContinuousClock.now + duration
            repeat {
                for byte in record.utf8 { hash = (hash ^ UInt64(byte)) &* 0x0100_0000_01b3 }
            } while ContinuousClock.now < deadline
            return hash
        }
    }

    /// The order store could not be reached.
    struct OrderStoreUnavailable: Error {}

    /// The API: `GET /health`, `GET /api/orders/ID`, `POST /api/orders`, `DELETE /api/orders/ID` (forbidden),
    /// 404 for the rest. An order store that is down (order 0) is an error it raises for the error page after it.
    final class OrdersHandler: ChannelInboundHandler {
        typealias InboundIn = HTTPServerRequestPart
        typealias OutboundOut = HTTPServerResponsePart

        private var request: HTTPRequestHead?

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            switch unwrapInboundIn(data) {
            case .head(let head): request = head
            case .body: break
            case .end:
                guard let head = request else { return }
                request = nil
                answer(head, context: context)
            }
        }

        private func answer(_ head: HTTPRequestHead, context: ChannelHandlerContext) {
            let path = head.uri.split(separator: "/").map(String.init)
            let orders = path.count >= 2 && path[0] == "api" && path[1] == "orders"
            let order = orders && path.count == 3 ? Int(path[2]) : nil
            switch head.method {
            case .GET where path == ["health"]: respond(context, .ok, body: "ok")
            case .GET where order != nil:
                guard let order, order != 0 else { return context.fireErrorCaught(OrderStoreUnavailable()) }
                respond(context, .ok, body: "{\"id\":\(order),\"status\":\"shipped\"}")
            case .POST where orders && path.count == 2: respond(context, .created)
            case .DELETE where order != nil: respond(context, .forbidden, body: "orders are never deleted")
            default: respond(context, .notFound)
            }
        }
    }

    /// Turns an unreachable order store into a 503 page; any other error (a peer that reset the connection, say)
    /// has no request to answer: the connection is closed.
    final class ErrorPageHandler: ChannelInboundHandler {
        typealias InboundIn = HTTPServerRequestPart
        typealias OutboundOut = HTTPServerResponsePart

        func errorCaught(context: ChannelHandlerContext, error: any Error) {
            if error is OrderStoreUnavailable {
                respond(context, .serviceUnavailable, headers: [("retry-after", "1")])
            } else {
                context.close(promise: nil)
            }
        }
    }
#endif
