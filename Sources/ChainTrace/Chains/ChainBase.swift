import CChainTraceSupport
import ChainTraceFastPath

/// What ``Chain`` and ``AsyncChain`` hold and forward to: a named, editable structure of handlers and registries,
/// its version, and its recorder.
///
/// Edits may happen while commands are being sent, from any thread: each edit builds a new immutable snapshot
/// and increases ``version``; a command in flight finishes on the snapshot it started with.
///
/// Each thread keeps the snapshot it last sent through (in a 64-entry cache), so sending takes no lock. When the
/// chain is released, the releasing thread drops its copy, and with it the handlers, at once; every other thread at
/// its next send through any chain, or when it exits.
///
/// `@unchecked Sendable` is sound: every stored property is either immutable or inside `state`, which is only
/// touched under its lock, and members are `Sendable`.
@usableFromInline
final class ChainBase<Member: ChainMember>: @unchecked Sendable {
    @usableFromInline
    struct State {
        var structure: ChainStructure<Member>
        var recorder: Recorder
        /// Where edits are told when the recorder has no sink (see ``changeSink``).
        var changeSink: (any TraceSink)?
        var maximumHops: Int?
        @usableFromInline var compiled: CompiledChain<Member>
        /// While above 0, edits leave the snapshot as it is (see ``editingInOneGo(_:)``).
        var snapshotsDeferred = 0
    }

    @usableFromInline let state: LockedValue<State>
    private let command: CommandTypeInfo
    private let boxOf: @Sendable (Member) -> AnyObject
    /// Identifies this chain in threads' snapshot caches; never reused.
    @usableFromInline let token = OwnerTokens.make()
    /// How many snapshots have been published; written under `state`'s lock with a release store, read by
    /// senders with an acquire load to see whether their thread's cached snapshot is still current.
    @usableFromInline let publication: UnsafeMutablePointer<Int64>

    @usableFromInline
    init(
        name: String,
        handlers: [Member],
        recorder: Recorder,
        command: CommandTypeInfo,
        boxOf: @escaping @Sendable (Member) -> AnyObject
    ) throws(ChainError) {
        var structure = ChainStructure<Member>(name: name)
        for handler in handlers { try structure.insert(handler, named: handler.name, at: .last) }
        self.command = command
        self.boxOf = boxOf
        publication = .allocate(capacity: 1)
        publication.initialize(to: 0)
        let compiled = CompiledChain(structure, recorder: recorder, command: command, hopLimit: nil, boxOf: boxOf)
        state = LockedValue(
            State(structure: structure, recorder: recorder, changeSink: nil, maximumHops: nil, compiled: compiled)
        )
    }

    deinit {
        publication.deallocate()
        ThreadState.ownerReleased()
    }

    /// The snapshot a command is sent through, read under the lock.
    var compiled: CompiledChain<Member> { state.withLock { $0.compiled } }

    /// The snapshot a command is sent through, from the calling thread's cache when no edit has been published
    /// since: one acquire load instead of the chain's lock, so threads sharing a chain do not contend on it.
    @inlinable
    func currentSnapshot(thread: ThreadState) -> CompiledChain<Member> {
        thread.forgetReleasedOwners()
        let slot = Int(token & 63)
        let published = chaintrace_load_acquire(publication)
        if thread.value.snapshotTokens[slot] == token, let entry = thread.value.snapshots[slot] {
            let cached = unsafeDowncast(entry, to: CachedSnapshot<Member>.self)
            if cached.publication == published { return cached.compiled }
        }
        return cacheSnapshot(thread: thread, slot: slot)
    }

    /// Reads the snapshot under the lock and caches it in `slot` of the calling thread's cache.
    @usableFromInline
    func cacheSnapshot(thread: ThreadState, slot: Int) -> CompiledChain<Member> {
        let fresh = state.withLock {
            CachedSnapshot(compiled: $0.compiled, publication: chaintrace_load_acquire(publication))
        }
        // The entry replaced is released after the cache is consistent: it may hold the last reference to a chain.
        let replaced = thread.value.snapshots[slot]
        thread.value.cacheBusy = true
        thread.value.snapshotTokens[slot] = token
        thread.value.snapshots[slot] = fresh
        thread.value.snapshotOwners[slot] = ThreadStateFields.WeakOwner(self)
        thread.value.cacheBusy = false
        withExtendedLifetime(replaced) {}
        return fresh.compiled
    }

    /// The chain's name, as traces record it.
    var name: String { state.withLock { $0.structure.chainName } }

    /// Starts at 0 and increases with every edit; each trace records the version it ran on.
    var version: Int { state.withLock { $0.structure.version } }

    /// Where this chain's traces go; ``Recorder/off`` by default. May be changed at any time.
    var recorder: Recorder {
        get { state.withLock { $0.recorder } }
        set { edit { $0.recorder = newValue } }
    }

    /// Where the chain's edits are told when its recorder has no sink: a replay, which records its traces itself,
    /// writes the edits of the chain it replays through into the same trace log this way.
    var changeSink: (any TraceSink)? {
        get { state.withLock { $0.changeSink } }
        set { state.withLock { $0.changeSink = newValue } }
    }

    /// The most hops one command may take before the chain stops it: with a `ChainError` of code `.loop` when its
    /// path repeats a handler, else `.hopLimit` (a limit set below the path's length). `nil` (the default) means
    /// one hop per node, which no loop-free path exceeds.
    var maximumHops: Int? {
        get { state.withLock { $0.maximumHops } }
        set { edit { $0.maximumHops = newValue } }
    }

    /// The names of the chain's handlers and registries, in the order they were added.
    var handlerNames: [String] { state.withLock { $0.structure.order } }

    /// The names a command sent to `entry` (by default the head) would pass, stopping before any repeat.
    func path(from entry: String? = nil) -> [String] {
        state.withLock { $0.structure.path(from: entry) }
    }

    /// Adds `handler` after the last handler of the head's path.
    func append(_ handler: Member) throws(ChainError) {
        try edit(.insert, handler.name, "last") { state throws(ChainError) in
            try state.structure.insert(handler, named: handler.name, at: .last)
        }
    }

    /// Adds `handler` at `position`.
    func insert(_ handler: Member, at position: ChainPosition) throws(ChainError) {
        try edit(.insert, handler.name, position.editDetail) { state throws(ChainError) in
            try state.structure.insert(handler, named: handler.name, at: position)
        }
    }

    /// Adds `handler` to a tree: it forwards to `next` (a node already in the chain), or ends its path when `nil`.
    /// The first node added to an empty chain becomes its head.
    func add(_ handler: Member, next: String?) throws(ChainError) {
        try edit(.add, handler.name, "next \(next ?? "nothing")") { state throws(ChainError) in
            try state.structure.add(handler, named: handler.name, next: next)
        }
    }

    /// Removes the named handler or registry; whatever led to it now leads where it led. Removing the head makes
    /// the node it led to the head; a head that led nowhere (an entry of a tree) hands over to the first node
    /// left, in the order they were added, that no other forwards to.
    func remove(_ name: String) throws(ChainError) {
        try edit(.remove, name, nil) { state throws(ChainError) in try state.structure.remove(name) }
    }

    /// Puts `handler` in the named handler's place, keeping its links.
    func replace(_ name: String, with handler: Member) throws(ChainError) {
        try edit(.replace, name, "by \(handler.name)") { state throws(ChainError) in
            try state.structure.replace(name, with: handler)
        }
    }

    /// Makes the named node forward to `next` (`nil`: end of path). Like setting a responder's `nextResponder`,
    /// this can close a loop; a loop is stopped at run time with a ``ChainError`` naming its handlers.
    func link(_ name: String, to next: String?) throws(ChainError) {
        try edit(.link, name, "next \(next ?? "nothing")") { state throws(ChainError) in
            try state.structure.link(name, to: next)
        }
    }

    /// Adds a registry — an internal chain of late responders ordered by weight — at `position`.
    @discardableResult
    func addRegistry(_ name: String, at position: ChainPosition = .last) throws(ChainError) -> Registry<Member> {
        try edit(.insert, name, "registry, \(position.editDetail)") { state throws(ChainError) in
            try state.structure.insert(nil, named: name, at: position)
        }
        return Registry(name: name, chain: self)
    }

    /// Adds a registry to a tree: it forwards to `next` (a node already in the chain), or ends its path when `nil`.
    @discardableResult
    func addRegistry(_ name: String, next: String?) throws(ChainError) -> Registry<Member> {
        try edit(.add, name, "registry, next \(next ?? "nothing")") { state throws(ChainError) in
            try state.structure.add(nil, named: name, next: next)
        }
        return Registry(name: name, chain: self)
    }

    /// The registry with this name.
    func registry(_ name: String) throws(ChainError) -> Registry<Member> {
        _ = try state.withLock { state throws(ChainError) in try state.structure.members(of: name) }
        return Registry(name: name, chain: self)
    }

    /// Applies a change to the chain's structure, publishes it, and tells the chain's sink (outside the lock).
    @discardableResult
    func edit<T, Failure: Error>(
        _ kind: ChainEdit.Kind,
        _ handler: String,
        _ detail: String?,
        _ change: (inout State) throws(Failure) -> T
    ) throws(Failure) -> T {
        var record: (sink: any TraceSink, edit: ChainEdit)?
        let result = try edit { state throws(Failure) -> T in
            let before = state.structure.version
            let result = try change(&state)
            if state.structure.version != before, let sink = state.recorder.configuration?.sink ?? state.changeSink {
                let edit = ChainEdit(
                    chain: state.structure.chainName,
                    version: state.structure.version,
                    kind: kind,
                    handler: handler,
                    detail: detail,
                    time: MonotonicClock.wallTime(MonotonicClock.now())
                )
                record = (sink, edit)
            }
            return result
        }
        // Nothing the sink sends meanwhile is traced, as while it takes a trace.
        if let record { ThreadState.current.whileSinkRecords { record.sink.record(record.edit) } }
        return result
    }

    /// Makes the edits `body` makes — each recorded as it is made — and publishes one snapshot when it returns,
    /// instead of one an edit: building a chain of n handlers compiled it n times over, so a chain definition of
    /// 5 000 handlers took 17 s to load and one of 1 000, half a second. Senders meanwhile see the chain as it was.
    func editingInOneGo<T, Failure: Error>(_ body: () throws(Failure) -> T) throws(Failure) -> T {
        state.withLock { $0.snapshotsDeferred += 1 }
        defer { edit { $0.snapshotsDeferred -= 1 } }
        return try body()
    }

    /// Applies an edit and publishes the new snapshot, all under the lock.
    @discardableResult
    func edit<T, Failure: Error>(_ change: (inout State) throws(Failure) -> T) throws(Failure) -> T {
        try state.withLock { state throws(Failure) -> T in
            let result = try change(&state)
            guard state.snapshotsDeferred == 0 else { return result }
            state.compiled = CompiledChain(
                state.structure,
                recorder: state.recorder,
                command: command,
                hopLimit: state.maximumHops,
                boxOf: boxOf
            )
            chaintrace_store_release(publication, chaintrace_load_acquire(publication) + 1)
            return result
        }
    }

    /// Walks from `entry` asking each handler's dry-run prediction; performs nothing. The walk stops where a real
    /// send stops: at a handler that would accept or fail.
    func dryRun(from entry: String?, predict: (Member) -> HandlerPrediction) throws(ChainError) -> DryRun {
        let chain = compiled
        var index = try chain.entryIndex(entry)
        var steps: [DryRun.Step] = []
        var hops = 0
        func step(_ member: Member, registry: String?) -> DryRun.Step {
            switch predict(member) {
            case .accept: DryRun.Step(handler: member.name, registry: registry, answer: .wouldAccept)
            case .pass: DryRun.Step(handler: member.name, registry: registry, answer: .wouldPass)
            case .continue: DryRun.Step(handler: member.name, registry: registry, answer: .wouldContinue)
            case .fail(let error):
                DryRun.Step(handler: member.name, registry: registry, answer: .wouldFail, error: error)
            case .unknown: DryRun.Step(handler: member.name, registry: registry, answer: .cannotTell)
            }
        }
        func ends(_ steps: [DryRun.Step]) -> Bool {
            steps.last?.answer == .wouldAccept || steps.last?.answer == .wouldFail
        }
        while index >= 0 {
            hops += 1
            if hops > chain.hopLimit { throw chain.loopError(at: index, hops: hops - 1) }
            let node = chain.nodes[Int(index)]
            let name = chain.names.names[Int(index)]
            if let handler = node.handler {
                steps.append(step(handler, registry: nil))
            } else {
                steps.append(DryRun.Step(handler: name, registry: nil, answer: .wouldPass))
                for member in chain.registries[Int(node.registry)] {
                    steps.append(step(member.handler, registry: name))
                    if ends(steps) { break }
                }
            }
            if ends(steps) { break }
            index = node.next
        }
        return DryRun(entry: chain.names.names[Int(try chain.entryIndex(entry))], steps: steps)
    }
}

/// One thread's copy of a chain's snapshot and the publication it belongs to.
@usableFromInline
final class CachedSnapshot<Member: ChainMember> {
    @usableFromInline let compiled: CompiledChain<Member>
    @usableFromInline let publication: Int64

    @usableFromInline
    init(compiled: CompiledChain<Member>, publication: Int64) {
        self.compiled = compiled
        self.publication = publication
    }
}

extension ChainBase {
    /// A table of the chain: each node, its kind and where it forwards.
    var debugDescription: String {
        state.withLock { state in
            let structure = state.structure
            var lines = ["Chain '\(structure.chainName)' version \(structure.version)"]
            for name in structure.order {
                guard let node = structure.nodes[name] else { continue }
                let head = structure.head == name ? " (head)" : ""
                let kind: String
                if let handler = node.handler {
                    kind = handler.role == .observer ? "observer" : "handler"
                } else {
                    let members = node.members.map { "\($0.member.name)@\($0.weight)" }.joined(separator: ", ")
                    kind = "registry [\(members)]"
                }
                lines.append("  \(name)\(head): \(kind) → \(node.next ?? "end")")
            }
            return lines.joined(separator: "\n")
        }
    }
}
