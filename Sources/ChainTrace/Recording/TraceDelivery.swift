import CChainTraceSupport
import ChainTraceFastPath
import ChainTraceJSON

extension ActiveTrace {
    /// Hands the finished trace to the recorder's sink.
    ///
    /// - Parameter thread: The calling thread: its spare trace storage, if any, holds the trace.
    func deliver(id: UInt64, thread: ThreadState) {
        let finished = trace(id: id, thread: thread)
        // Called unretained: this trace holds its configuration until `retire`, after the sink returns.
        about.value.configuration.map { UnretainedObject($0) }?.withObject { $0.record(finished, on: thread) }
    }

    /// The finished trace. What it says of the command moves into the trace (this object keeps none of it), so
    /// a trace is made once.
    private func trace(id: UInt64, thread: ThreadState) -> Trace {
        withContent { content in
            // From here on, a hop of a task that outlived the command starts a trace of its own.
            if isShared { delivered.store(1) }
            if !content.failureErrors.isEmpty || !content.stoppedAtLimit.isEmpty { describeFailures(&content) }
            // Lent: `content.lastNames` holds the table.
            let names = sharedNames(&content)
            let count = content.records.count
            let outcomeHop = Int32(
                content.failure ?? content.records.withUnsafeBufferPointer {
                    $0.lastIndex(where: { $0.decision == .accepted })
                } ?? -1
            )
            let storage: TraceStorage
            if let spare = thread.spareTraceStorage, spare.hopCapacity >= count {
                // A trace a sink let go of (a full ring's oldest): refilled instead of allocating one.
                thread.spareTraceStorage = nil
                spare.reset(names: names, entry: 0, chainVersion: 0)
                storage = spare
            } else {
                storage = .make(capacity: count) {
                    TraceHeader(id: id, names: names.object, entry: 0, chainVersion: 0, start: start, inTicks: true)
                }
            }
            // One call for the header, the hops and the hops still open, on the storage itself (not captured by
            // the records' closure): as three calls, or inside that closure, the storage was retained and released
            // around them, each an atomic read-modify-write (callgrind).
            storage.withUnsafeMutablePointers { header, elements in
                content.records.withUnsafeBufferPointer { records in
                    header.pointee.id = id
                    Self.replace(&header.pointee.kind, with: about.value.kind.take())
                    Self.replace(&header.pointee.commandID, with: about.value.commandID.take())
                    Self.replace(&header.pointee.payload, with: about.value.payload.take())
                    Self.replace(&header.pointee.encodedPayload, with: about.value.encodedPayload.take())
                    header.pointee.start = start
                    header.pointee.duration = content.end &- start
                    // Nearly always both empty: then not copied (a retain and a release).
                    if !(header.pointee.reasons.values.isEmpty && content.reasons.values.isEmpty) {
                        header.pointee.reasons = content.reasons
                    }
                    header.pointee.outcomeHop = outcomeHop
                    if let parent = content.traceParent {
                        header.pointee.traceParent = parent
                        content.traceParent = nil
                    }
                    TraceStorage.fill(header, elements, with: records)
                    if !content.tasks.isEmpty {
                        // A shared trace's hops still open, in any task: delivered as they were opened, with no time.
                        for record in 0..<content.tasks.records.count where content.tasks.records[record].isOpen {
                            elements[record].selfDuration = 0
                        }
                    } else if content.innermost >= 0 {
                        // Hops still open (a task that outlived the command may close them later) are delivered as
                        // they were opened: no time. Each names an earlier one as its parent, so this ends.
                        var open = content.innermost
                        while open >= 0 {
                            let enclosing = Int(elements[open].parent)
                            elements[open].selfDuration = 0
                            open = enclosing
                        }
                    }
                }
            }
            return Trace(storage: storage)
        }
    }

    /// Makes the text of the errors hops failed with (``Content/failureErrors``) and of the hops stopped at the hop
    /// limit (``Content/stoppedAtLimit``, naming the loop), now that no hop is timed. Out of line: nearly every trace
    /// has none.
    @inline(never)
    private func describeFailures(_ content: inout Content) {
        for (record, error) in content.failureErrors { content.reasons.set(FailureText.of(error), at: record) }
        content.failureErrors.removeAll(keepingCapacity: true)
        for record in content.stoppedAtLimit {
            let names = (0...record).map { content.name(at: $0) }
            content.reasons.set(Self.loopMessage(names, chain: chain, hops: record), at: record)
        }
        content.stoppedAtLimit.removeAll(keepingCapacity: true)
    }

    /// The name table of this trace: the last one made, when its names are the same. Lent, unretained:
    /// `content.lastNames` holds it until the next trace this object builds.
    private func sharedNames(_ content: inout Content) -> UnretainedObject<HandlerNameTable> {
        let commandType = about.value.commandType
        if content.namesFollowLast, let last = content.lastNames.map({ UnretainedObject($0) }),
            last.withObject({
                $0.names.count == content.records.count && $0.chain == chain && $0.commandType == commandType
            })
        {
            return last
        }
        let table = HandlerNameTable(chain: chain, commandType: commandType, names: content.currentNames)
        content.lastNames = table
        content.lastNameIdentities = table.names.map { StringIdentity(of: $0) }
        return UnretainedObject(table)
    }

    private static func loopMessage(_ names: [String], chain: String, hops: Int) -> String {
        let last = names[names.count - 1]
        let earlier = names[..<(names.count - 1)].lastIndex(of: last)
        guard let earlier else {
            // No handler repeated: the chain is longer than the limit, not caught in a loop.
            return ChainError.hopLimit(at: last, in: chain, hops: hops, limit: hops, needed: nil).message
        }
        return ChainError.loop(Array(names[earlier..<(names.count - 1)]), in: chain, afterHops: hops).message
    }
}
