@_spi(Reflection) import Swift

/// `value`, a struct a library defines whose one stored property, `name`, it keeps private, as `Box`: a struct of the
/// caller's whose one stored property has the same type — so that the caller reads the property as `Box`'s; `nil`
/// unless both are structs of one stored property each, at the start, of one type, `value`'s named `name`, laid out
/// alike.
///
/// For a closure a library keeps private: gRPC's `ConditionalInterceptor.Subject` holds in a private closure the test
/// of which methods an interceptor applies to, and a traced interceptor pipeline reads it to pick each method's
/// interceptors and run them as one chain (`PipelineChains` in ChainTraceGRPC). What it buys: wrapped for gRPC to run
/// instead, each interceptor cost an async frame and a task-local read more a hop, traced or not
/// (`chaintrace-grpc-benchmarks`, "GRPCTracing.server(pipeline:)" rows; callgrind: an interceptor hop 1 968 → 1 202
/// instructions with no recorder in force, 2 966 → 1 381 traced, against 1 285 untraced). A closure cannot be read
/// any other way: `Mirror`, or a load through a typed pointer, hands the stored closure back as if it were stored for
/// generic code, whose calling convention differs (called, `{ _ in true }` answered `false`); a struct reinterpreted
/// as another struct keeps its fields as they are stored. Its differential tests: `SoleStoredPropertyTests` (closures
/// of its own read back and called, against the property's own calls), and `PipelineChainsTests` for gRPC's subjects
/// (the interceptors picked against those gRPC's own server and client run).
///
/// A private property is no interface: a library may rename it, add another, or change its type; then this is `nil`,
/// and the caller does without it.
@inlinable
package func reinterpretingSoleStoredProperty<Value, Box>(_ value: Value, named name: String, as _: Box.Type) -> Box? {
    guard MemoryLayout<Value>.size == MemoryLayout<Box>.size,
        MemoryLayout<Value>.alignment == MemoryLayout<Box>.alignment,
        let property = soleStoredProperty(of: Value.self), property.name == name,
        let boxProperty = soleStoredProperty(of: Box.self), property.type == boxProperty.type
    else { return nil }
    return unsafeBitCast(value, to: Box.self)
}

/// The name and type of `type`'s one stored property, if it is a struct of one stored property, stored at its start.
@usableFromInline
func soleStoredProperty(of type: Any.Type) -> (name: String, type: Any.Type)? {
    var properties: [(name: String, offset: Int, type: Any.Type)] = []
    // `_EachFieldOptions.ignoreUnknown`, whose static property is a `var`, which Swift 6 does not let a caller read.
    let isStruct = _forEachField(of: type, options: _EachFieldOptions(rawValue: 1 << 1)) { name, offset, type, _ in
        properties.append((String(cString: name), offset, type))
        return true
    }
    guard isStruct, properties.count == 1, let property = properties.first, property.offset == 0 else { return nil }
    return (property.name, property.type)
}
