@_spi(Reflection) import Swift

/// A linked list a library keeps in private stored properties of final classes, read where it lies: the objects
/// from its first to its last, each reached from the one before it by a property of its own.
///
/// For a library that lists its parts nowhere public but in a description it formats at length. SwiftNIO's
/// `ChannelPipeline` names its handlers only in `debugDescription`, which pads and joins a line for each handler
/// (its width counted in characters): that description was about three quarters of putting the probes into an
/// HTTP/1 server pipeline. This follows the pipeline's `head` context by each context's `next` instead, each
/// property found once by name and type in the runtime's field records, then loaded at its offset. What it buys: a
/// connection's probes went from +47–50 µs to +13.5–13.6 µs (`chaintrace-nio-benchmarks`, "A connection's set-up",
/// "probes put in"); through `Mirror`, which boxes every property it passes, the walk alone cost half of what the
/// description did. Its differential tests: `ReflectedLinksTests` (a plain walk of a list of its own) and
/// `GeneratedPipelineTests` (the contexts against the description's names).
///
/// Private properties are no interface: a library may rename them, or change their types. A property is used only
/// if it is found with the expected name and type (an optional `Node`), and the walk succeeds only if it goes from
/// `first`'s object to `last`'s within `limit` objects; otherwise it returns `nil`, and the caller reads the public
/// description instead. `GeneratedPipelineTests` fails if the walk stops working on the NIO we build with, so a
/// renaming is seen rather than silently slower.
@usableFromInline package struct ReflectedLinks<Owner: AnyObject, Node: AnyObject>: Sendable {
    /// Where `Owner` keeps the list's first and last objects, and `Node` the next one: byte offsets into an
    /// instance; `nil` when a property is missing or not an optional `Node`.
    @usableFromInline let first: Int?
    @usableFromInline let last: Int?
    @usableFromInline let next: Int?

    /// The layout of a list `Owner` holds from its stored property `first` to its stored property `last`, each
    /// object linked to the next by its stored property `next`. Both must be final classes (their properties are
    /// looked for in them, not in subclasses). Looking the properties up costs about as much as reading a
    /// description: make it once, in a `static let`.
    package init(first: String, last: String, next: String) {
        self.first = Self.offset(of: first, in: Owner.self)
        self.last = Self.offset(of: last, in: Owner.self)
        self.next = Self.offset(of: next, in: Node.self)
    }

    /// Whether the properties were found, with the expected types.
    package var isFound: Bool { first != nil && last != nil && next != nil }

    /// The objects of `owner`'s list, its first's and last's included; `nil` if the properties were not found, or
    /// the links do not reach the last object within `limit` objects. The caller must be the only one changing the
    /// list while it is read (NIO: on the event loop).
    @inlinable
    package func list(in owner: Owner, limit: Int) -> [Node]? {
        guard let first, let last, let next, type(of: owner) == Owner.self,
            let start = Self.load(at: first, in: owner),
            let end = Self.load(at: last, in: owner)
        else { return nil }
        var nodes = [start]
        var current = start
        while current !== end {
            guard nodes.count < limit, type(of: current) == Node.self,
                let following = Self.load(at: next, in: current)
            else { return nil }
            nodes.append(following)
            current = following
        }
        return nodes
    }

    /// Whether any object of `owner`'s list, its first's and last's included, satisfies `predicate`, which sees them
    /// from the first on; `nil` if the properties were not found, or the links do not reach the last object within
    /// `limit` objects (reached before any satisfied `predicate`). ``list(in:limit:)`` without the array: what it
    /// buys, NIO's pipelines checked for probes at every new connection with one walk instead of two by type
    /// (`chaintrace-nio-benchmarks`, "A connection's set-up", "oneIn(100)").
    @inlinable
    package func contains(in owner: Owner, limit: Int, where predicate: (Node) -> Bool) -> Bool? {
        guard let first, let last, let next, type(of: owner) == Owner.self,
            var current = Self.load(at: first, in: owner),
            let end = Self.load(at: last, in: owner)
        else { return nil }
        var count = 1
        while true {
            if predicate(current) { return true }
            if current === end { return false }
            guard count < limit, type(of: current) == Node.self, let following = Self.load(at: next, in: current) else {
                return nil
            }
            count += 1
            current = following
        }
    }

    /// `_EachFieldOptions`' `classType` and `ignoreUnknown`, whose static properties are `var`s, which Swift 6 does
    /// not let a caller read.
    private static var classTypeIgnoringUnknown: _EachFieldOptions { _EachFieldOptions(rawValue: 1 << 0 | 1 << 1) }

    /// The byte offset of `type`'s stored property `name` in an instance, if it has one and it is an optional
    /// `Node`.
    private static func offset(of name: String, in type: AnyObject.Type) -> Int? {
        var found: Int?
        _ = _forEachField(of: type, options: classTypeIgnoringUnknown) { label, offset, fieldType, _ in
            guard String(cString: label) == name else { return true }
            if fieldType == Node?.self { found = offset }
            return false
        }
        return found
    }

    /// The optional `Node` stored `offset` bytes into `object` (an offset ``offset(of:in:)`` found for the
    /// object's own type), retained. `object` is a parameter, which its caller keeps alive for the call: wrapped in
    /// `withExtendedLifetime`, each load was a call of the unspecialised generic function (~75 instructions).
    @inlinable @inline(__always)
    static func load(at offset: Int, in object: AnyObject) -> Node? {
        UnsafeRawPointer(Unmanaged.passUnretained(object).toOpaque()).load(fromByteOffset: offset, as: Node?.self)
    }
}
