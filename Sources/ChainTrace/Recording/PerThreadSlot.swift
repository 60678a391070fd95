/// One object per recording thread for an owner — how a sink in another module keeps per-thread state (a trace
/// log sink's hand-off queue) in the thread state the recorder already reaches, instead of a pthread key of its
/// own per sink.
///
/// The owner calls ``ownerReleased()`` from its `deinit`: every thread then drops its object for it (the
/// releasing thread at once, others at their next send).
package struct PerThreadSlot: Sendable {
    private let token = OwnerTokens.make()

    /// A new slot, distinct from every other.
    package init() {}

    /// The calling thread's object for `owner`, made by `make` on the thread's first call.
    package func object<Object: AnyObject>(owner: AnyObject, make: () -> Object) -> Object {
        ThreadState.current.slot(token: token, owner: owner, make: make)
    }

    /// Tells every thread that an owner of per-thread objects has been released.
    package static func ownerReleased() {
        ThreadState.ownerReleased()
    }
}
