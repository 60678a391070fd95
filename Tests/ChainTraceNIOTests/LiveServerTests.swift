#if NIO
    import ChainTrace
    import ChainTraceNIO
    import ChainTraceTestSupport
    import ChainTraceTesting
    import Dispatch
    import Foundation
    import NIOCore
    import NIOHTTP1
    import NIOPosix
    import Synchronization
    import Testing

    #if canImport(Glibc)
        import Glibc
    #endif

    /// Answers every request `hello`, on NIO's HTTP/1 server handlers.
    final class HelloHandler: ChannelInboundHandler {
        typealias InboundIn = HTTPServerRequestPart
        typealias OutboundOut = HTTPServerResponsePart

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            guard case .end = unwrapInboundIn(data) else { return }
            var headers = HTTPHeaders()
            headers.add(name: "content-length", value: "5")
            context.write(
                wrapOutboundOut(.head(HTTPResponseHead(version: .http1_1, status: .ok, headers: headers))),
                promise: nil
            )
            context.write(
                wrapOutboundOut(.body(.byteBuffer(context.channel.allocator.buffer(string: "hello")))),
                promise: nil
            )
            context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
        }
    }

    /// Makes `count` requests one after the other on one keep-alive connection to 127.0.0.1:`port`, with blocking
    /// sockets (a plain client, nothing of NIO's): the local port it used, and how many answers came back whole.
    func requestHello(port: Int, count: Int) -> (localPort: Int, answered: Int) {
        let socketFD = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socketFD >= 0 else { return (0, 0) }
        defer { close(socketFD) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(socketFD, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else { return (0, 0) }
        var local = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &local) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(socketFD, $0, &length) }
        }
        let request = Array("GET /hello HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".utf8)
        var answered = 0
        var buffer = [UInt8](repeating: 0, count: 4096)
        for _ in 0..<count {
            guard send(socketFD, request, request.count, 0) == request.count else { break }
            var received: [UInt8] = []
            while !received.ends(with: Array("hello".utf8)) {
                let read = recv(socketFD, &buffer, buffer.count, 0)
                guard read > 0 else { return (Int(UInt16(bigEndian: local.sin_port)), answered) }
                received += buffer[0..<read]
            }
            answered += 1
        }
        return (Int(UInt16(bigEndian: local.sin_port)), answered)
    }

    extension Array where Element: Equatable {
        func ends(with suffix: [Element]) -> Bool {
            count >= suffix.count && Array(self[(count - suffix.count)...]) == suffix
        }
    }

    @Suite("NIO: a live HTTP/1 server on loopback, traced", .tags(.concurrent))
    struct LiveServerTests {
        @Test("many connections at once: every request's events traced, none mixed between channels")
        func everyEventTracedNoneMixed() async throws {
            let connections = 24
            let requestsEach = 10
            let group = MultiThreadedEventLoopGroup(numberOfThreads: 2)
            let children = Mutex<[any Channel]>([])
            let server = try await ServerBootstrap(group: group)
                .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
                .childChannelInitializer { channel in
                    children.withLock { $0.append(channel) }
                    return channel.eventLoop.makeCompletedFuture {
                        try channel.pipeline.syncOperations.configureHTTPServerPipeline()
                        try channel.pipeline.syncOperations.addHandler(HelloHandler())
                        try channel.pipeline.traceEventsNow(chain: "nio-live")
                    }
                }
                .bind(host: "127.0.0.1", port: 0).get()
            let port = try #require(server.localAddress?.port)
            var results: [(localPort: Int, answered: Int)] = []
            let traces = try await captureTraces(of: ["nio-live"], payloads: .captured) {
                results = await withTaskGroup(of: (Int, Int).self) { tasks in
                    for _ in 0..<connections {
                        tasks.addTask { requestHello(port: port, count: requestsEach) }
                    }
                    return await tasks.reduce(into: []) { $0.append($1) }
                }
                try await server.close()
                // Each child closes as its client did, after its last read: once all are closed, every event of
                // theirs has been recorded (a channel's events run one after the other on its loop).
                for child in children.withLock({ $0 }) { try await child.closeFuture.get() }
            }
            try await group.shutdownGracefully()

            #expect(results.allSatisfy { $0.answered == requestsEach }, "\(results)")
            // Each request's bytes reached HelloHandler as a head and an end: twice a request, on its own connection
            // (its channelActive and channelInactive went through it too, traces of their own).
            var helloByPeer: [String: Int] = [:]
            for trace in traces where trace.commandKind == "channelRead ByteBuffer" {
                guard case .object(let payload)? = trace.payload, case .string(let peer)? = payload["remoteAddress"]
                else { continue }
                helloByPeer[peer, default: 0] += trace.hops.filter { $0.handler == "HelloHandler" }.count
            }
            #expect(helloByPeer.count == connections, "\(helloByPeer.keys.sorted())")
            for result in results {
                let peer = helloByPeer.first { $0.key.hasSuffix(":\(result.localPort)") }
                #expect(peer?.value == 2 * requestsEach, "port \(result.localPort): \(String(describing: peer))")
            }
            // The answer went out through the encoder to the channel, inside the read that asked for it.
            let reads = traces.filter { $0.commandKind == "channelRead ByteBuffer" }
            #expect(reads.count >= connections * requestsEach)
            #expect(traces.filter { $0.commandKind == "channelActive" }.count == connections)
            #expect(traces.filter { $0.commandKind == "channelInactive" }.count == connections)
            #expect(reads.contains { $0.hops.contains { $0.handler.hasPrefix("HTTPResponseEncoder") } })
        }
    }
#endif
