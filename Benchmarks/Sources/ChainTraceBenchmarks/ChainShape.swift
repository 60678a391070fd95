/// The handlers in every benchmarked chain. Declared here, not in `main.swift`: a global of `main.swift` is a
/// top-level variable of the script, and an async closure that reads one is not inlined into its caller, which
/// costs an async handler whose body is a closure about 400 instructions (35 ns) a hop that the same handler in a
/// library module does not pay. The wrapper-floor and `traceHop` rows would then measure the script, not the
/// wrapper.
let handlerCount = 10
