#if NIO
    import NIOCore
    import Synchronization

    /// How the probes of a pipeline are made, worked out from its handlers' types alone — so the same for every
    /// connection a server sets up with the same handlers — and kept: what each probe hands events on to, named, and
    /// the message types the pipeline's handlers declare.
    ///
    /// What keeping it buys: made for each new connection, the handlers' names in traces (`HTTPResponseEncoder
    /// (write)`), the probes' own names and the table of message types (looked up by their names) made putting probes
    /// into a connection of the NIO sample cost 104 000 instructions; with the plan kept, 50 000, of which NIO's adding
    /// them is 26 000. Kept, the names are also the very same strings on every connection, which the recorder and the
    /// trace log's encoder recognise without reading them. A request of the sample with every connection traced, a
    /// new connection a request, went from 450 000 to 398 600 instructions (callgrind, every thread: `KEEPALIVE=0
    /// CONNECTIONS=50 Scripts/count-sample-instructions.sh nio 1`).
    struct ProbePlan: Sendable {
        /// One probe: its name in the pipeline, and what it hands events on to.
        struct Probe: Sendable {
            /// `ChainTrace.probe.N`, or `ChainTrace.probe.tail`.
            let name: String
            /// The handler inbound events reach next; `unhandled` at the tail.
            let inbound: ProbedHandler?
            /// The handler before it, which writes reach next (`Encoder (write)`; the channel's own `Channel
            /// (write)` at the head).
            let outboundWrite: ProbedHandler?
            /// The same handler as flushes reach it (`Encoder (flush)`).
            let outboundFlush: ProbedHandler?
            /// Whether it is the probe after the last handler.
            let isTail: Bool
        }

        /// The types of the handlers it was made for, head to tail.
        let handlerTypes: [ObjectIdentifier]
        /// Whether it names message types.
        let messageTypes: Bool
        /// The names of the message types its probes declare, by ``MessageType/index``.
        let typeNames: [String]
        /// A probe in front of each handler, head to tail, then the tail's.
        let probes: [Probe]

        /// The plan for a pipeline of `handlers`, head to tail: one kept for handlers of the same types, else made
        /// (and kept).
        static func of(_ handlers: [any ChannelHandler], messageTypes: Bool) -> ProbePlan {
            let types = handlers.map { ObjectIdentifier(type(of: $0)) }
            let kept = recent.withLock { plans in plans.first { $0.isFor(types, messageTypes: messageTypes) } }
            if let kept { return kept }
            let plan = ProbePlan(for: handlers, messageTypes: messageTypes)
            return recent.withLock { plans in
                // Another event loop may have made the same plan meanwhile: one is kept.
                if let kept = plans.first(where: { $0.isFor(types, messageTypes: messageTypes) }) { return kept }
                if plans.count >= keptPlans { plans.removeFirst() }
                plans.append(plan)
                return plan
            }
        }

        /// Whether this is the plan for handlers of `types`, head to tail, naming message types or not.
        private func isFor(_ types: [ObjectIdentifier], messageTypes: Bool) -> Bool {
            self.messageTypes == messageTypes && handlerTypes == types
        }

        /// The plans made last, oldest first: a server has a few pipeline shapes (one a protocol, before and after an
        /// upgrade), and a plan is looked up by comparing the handlers' types one by one.
        private static let recent = Mutex<[ProbePlan]>([])
        /// The most plans kept; past it, the oldest goes.
        static let keptPlans = 16

        /// The plan for a pipeline of `handlers`, head to tail, made now (``of(_:messageTypes:)`` keeps it).
        init(for handlers: [any ChannelHandler], messageTypes: Bool) {
            handlerTypes = handlers.map { ObjectIdentifier(type(of: $0)) }
            self.messageTypes = messageTypes
            var table = MessageTypeTable()
            let sides = handlers.map { DeclaredTypes(of: $0, named: messageTypes, types: &table) }
            typeNames = table.names
            let channel = ProbedHandler(name: "Channel")
            var probes: [Probe] = []
            probes.reserveCapacity(handlers.count + 1)
            for index in 0...handlers.count {
                let isTail = index == handlers.count
                let outbound = index == 0 ? channel : sides[index - 1].outbound
                probes.append(
                    Probe(
                        name: EventProbe.namePrefix + (isTail ? "tail" : "\(index)"),
                        inbound: isTail ? ProbedHandler(name: "unhandled") : sides[index].inbound,
                        outboundWrite: outbound.map {
                            ProbedHandler(
                                name: "\($0.name) (write)",
                                takes: $0.takes,
                                takesName: $0.takesName,
                                sends: $0.sends
                            )
                        },
                        outboundFlush: outbound.map { ProbedHandler(name: "\($0.name) (flush)") },
                        isTail: isTail
                    )
                )
            }
            self.probes = probes
        }
    }
#endif
